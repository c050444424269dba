/**
 * /dataset: every dataset version with its size, and the
 * repositories each one draws its chains from. Public.
 */
import type { Metadata } from "next";
import Link from "next/link";
import { DatasetExportLinks } from "@/components/dataset/DatasetExportLinks";
import { DatasetRepositoriesTable, DatasetSourcesTable, DatasetVersionsTable } from "@/components/dataset/DatasetTables";
import { getDatasetIndex } from "@/lib/dataset/browser";

export const metadata: Metadata = { title: "Dataset · ChainSWE" };

const exportHref = (table: "versions" | "repositories") => (format: "csv" | "json") => `/api/v1/dataset?table=${table}&format=${format}`;

export default async function DatasetPage() {
  const { versions } = await getDatasetIndex();
  return (
    <main>
      <h1>Dataset</h1>
      <p>
        ChainSWE&apos;s chains of dependent bugs: each chain is a run of real fixes in one repository, in commit order, where a later fix
        builds on code an earlier one changed. Open a version for its chains and how hard public systems found them. Signed in, you
        can <Link href="/dataset/proposals/new">propose new chains</Link> (<Link href="/dataset/proposals">proposals</Link>).
      </p>
      {versions.length === 0 ? (
        <p>No dataset has been imported yet (`chainswe dataset import FILE --version NAME`).</p>
      ) : (
        <>
          <DatasetVersionsTable versions={versions} />
          <DatasetExportLinks label="versions" href={exportHref("versions")} />
          {versions.map((v) => (
            <section key={v.version} id={`repos-${v.version}`} aria-labelledby={`repos-${v.version}-heading`}>
              <h2 id={`repos-${v.version}-heading`}>Repositories in {v.version}</h2>
              <DatasetRepositoriesTable version={v.version} repositories={v.repositories} />
              {v.by_source && v.by_source.length > 0 && <DatasetSourcesTable version={v.version} sources={v.by_source} />}
            </section>
          ))}
          <DatasetExportLinks label="repositories (every version)" href={exportHref("repositories")} />
        </>
      )}
    </main>
  );
}
