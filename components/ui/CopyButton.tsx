"use client";
/** A button that copies a text (a command) to the clipboard and says so; without JavaScript the text is still there to select. */
import { useState } from "react";

export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  }
  return (
    <>
      <button type="button" onClick={copy}>
        {label}
      </button>{" "}
      <span role="status" className="muted">
        {copied === "yes" ? "Copied." : copied === "no" ? "Could not copy: select the text instead." : ""}
      </span>
    </>
  );
}
