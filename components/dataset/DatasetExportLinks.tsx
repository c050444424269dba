/** "Download: CSV · JSON" for one table's export endpoint (the same rows in both formats). */
export function DatasetExportLinks({ href, label, testId }: { href: (format: "csv" | "json") => string; label: string; testId?: string }) {
  return (
    <p className="exports" data-testid={testId}>
      Download {label}:{" "}
      <a href={href("csv")} download>
        CSV
      </a>{" "}
      ·{" "}
      <a href={href("json")} download>
        JSON
      </a>
    </p>
  );
}
