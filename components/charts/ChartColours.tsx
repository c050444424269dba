"use client";
/**
 * The charts' colours are the stylesheet's (app/globals.css), read once the
 * chart mounts in the browser; until then (and on the server) a chart draws
 * nothing and its fixed-height box keeps the layout still.
 */
import { useEffect, useState } from "react";

/** var name → its computed value; null before mount. */
export function useCssColours(names: readonly string[]): Record<string, string> | null {
  const [colours, setColours] = useState<Record<string, string> | null>(null);
  const key = names.join(",");
  useEffect(() => {
    const style = getComputedStyle(document.documentElement);
    const read = () => setColours(Object.fromEntries(key.split(",").map((n) => [n, style.getPropertyValue(n).trim() || "currentColor"])));
    read();
    // light and dark themes follow the system setting
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    media.addEventListener("change", read);
    return () => media.removeEventListener("change", read);
  }, [key]);
  return colours;
}
