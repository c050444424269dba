/**
 * A bug's problem statement: untrusted text from an issue tracker, rendered as
 * Markdown (fences, code, lists, links) and never as HTML (UntrustedMarkdown), in a
 * collapsible block whose summary is its first line.
 */
import { problemTitle } from "@/lib/dataset/view";
import { UntrustedMarkdown } from "@/components/ui/UntrustedMarkdown";

export function DatasetProblemStatement({ text, open = false }: { text: string; open?: boolean }) {
  return (
    <details className="problem-statement" open={open}>
      <summary>
        Problem statement: <span className="problem-title">{problemTitle(text)}</span>
      </summary>
      <div className="problem-text" data-testid="problem-statement">
        <UntrustedMarkdown text={text} />
      </div>
    </details>
  );
}
