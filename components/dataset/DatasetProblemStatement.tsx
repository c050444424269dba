/**
 * A bug's problem statement: untrusted text from an issue tracker, rendered as
 * text (React escapes it; it is never parsed as HTML or Markdown), in a
 * collapsible block whose summary is its first line.
 */
import { problemTitle } from "@/lib/dataset/view";

export function DatasetProblemStatement({ text, open = false }: { text: string; open?: boolean }) {
  return (
    <details className="problem-statement" open={open}>
      <summary>
        Problem statement: <span className="problem-title">{problemTitle(text)}</span>
      </summary>
      <div className="problem-text" data-testid="problem-statement">
        {text}
      </div>
    </details>
  );
}
