/**
 * A test log with numbered lines, each an anchor (`#L120`), so a failing
 * test's excerpt on the failure page can point at the line it came from.
 * Line numbers are the ones `logLines` gives, the same the excerpts use.
 */
import { logLines } from "@/core/parsers/log-text";
import { count } from "@/core/format";

/** Enough for any real pytest run; past it the page says so and the download has the rest. */
export const LOG_VIEW_MAX_LINES = 20_000;

export function LogView({ log, label }: { log: string; label: string }) {
  const lines = logLines(log);
  // the newline that ends the log starts no line of its own
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const shown = lines.slice(0, LOG_VIEW_MAX_LINES);
  const width = String(shown.length).length;
  return (
    <>
      <pre className="log-view" aria-label={label} style={{ ["--ln-width" as string]: `${width}ch` }}>
        {shown.map((text, i) => (
          <span key={i} id={`L${i + 1}`} className="log-line">
            <a href={`#L${i + 1}`} className="ln" aria-hidden="true" tabIndex={-1}>
              {i + 1}
            </a>
            {text}
            {"\n"}
          </span>
        ))}
      </pre>
      {lines.length > shown.length && (
        <p className="muted" data-testid="log-truncated">
          Showing the first {count(shown.length)} of {count(lines.length)} lines; the download has them all.
        </p>
      )}
    </>
  );
}
