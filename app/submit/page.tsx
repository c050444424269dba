/**
 * /submit: upload a predictions file for one of your teams' systems. Signed-in
 * only; the upload itself goes to POST /api/v1/submissions (components/submissions/SubmitForm.tsx).
 */
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SubmitForm } from "@/components/submissions/SubmitForm";
import { DataTable } from "@/components/ui/DataTable";
import { getViewer } from "@/lib/auth/viewer";
import { env } from "@/env";
import { submitFormOptions } from "@/lib/submissions/intake";

export const metadata: Metadata = { title: "Submit · ChainSWE" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SubmitPage({ searchParams }: Props) {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin?callbackUrl=/submit");
  // `run_of`: the form opened from a submission's "Add a run" (SPEC §7 repeated runs)
  const runOf = (await searchParams).run_of;
  const asked = typeof runOf === "string" && runOf !== "" ? runOf : undefined;
  const options = await submitFormOptions(viewer, undefined, asked);
  const server = env().NEXTAUTH_URL ?? "<this site's URL>";
  const version = options.defaultVersion ?? "v1";
  return (
    <main>
      <h1>Submit predictions</h1>
      {options.systems.length === 0 ? (
        <p>
          {viewer.teams.length === 0 ? "You are not in a team yet" : "Your team has no system yet"}: a submission is the output of
          one of a team&apos;s systems (model + scaffold + context configuration). Create or join a team and add a system on{" "}
          <Link href="/teams">Teams</Link>, then come back.
        </p>
      ) : options.versions.length === 0 ? (
        <p>No dataset version has been imported yet, so there is nothing to submit against.</p>
      ) : (
        <>
          <p className="muted">
            Your submission stays private to your team until you ask to publish it and a reviewer approves. Every line is
            checked before anything is stored; problems are listed by line.
          </p>
          {asked && !options.runOf && (
            <p className="errors" role="alert">
              No submission {asked} of your teams&apos; systems: this upload would start a new entry, not add a run to one.
            </p>
          )}
          <noscript>
            <p className="errors">This form needs JavaScript. Without it, upload with <code>chainswe submit</code> or the HTTP API.</p>
          </noscript>
          <SubmitForm options={options} />
        </>
      )}
      <h2>The predictions file</h2>
      <p>
        JSON Lines, one object per bug: <code>continuous_id</code>, <code>swebench_instance_id</code> (or{" "}
        <code>instance_id</code>) and <code>model_patch</code> (a unified diff; empty or <code>null</code> for no patch),
        optionally <code>model_name_or_path</code> (the same on every line), <code>order</code>, and the figures{" "}
        <code>cost_usd</code>, <code>input_tokens</code>, <code>output_tokens</code>, <code>peak_context_tokens</code>,{" "}
        <code>turns</code>, <code>wall_seconds</code>. A bug with no line counts as an empty patch.
      </p>
      <pre>{`{"continuous_id": "dateranges-chain-1", "swebench_instance_id": "chainswe-demo__dateranges-1", "model_patch": "diff --git a/…", "cost_usd": 0.42}`}</pre>
      <h2>From a terminal</h2>
      <p>
        With an API token (scope <code>submit</code>) from your <Link href="/account">account</Link> and the id of the
        system:
      </p>
      <pre>{`chainswe submit --server ${server} --token csw_… --system ${options.systems[0]?.id ?? "<system id>"} \\
  --dataset-version ${version} --mode seq --wait predictions.jsonl`}</pre>
      <p>
        Repeated runs of one system and mode (SPEC §7) are separate uploads: add <code>--run-of &lt;submission id&gt;</code>{" "}
        (any earlier run of the entry) to each run after the first.
      </p>
      {options.systems.length > 0 && (
        <DataTable
          caption="Your systems"
          rowHeader={false}
          columns={[
            { header: "Team", cell: (s) => s.teamName },
            { header: "System", cell: (s) => s.name },
            { header: "Model", cell: (s) => s.model },
            { header: "Id (for --system)", cell: (s) => <code>{s.id}</code> },
          ]}
          rows={options.systems}
          rowKey={(s) => s.id}
        />
      )}
    </main>
  );
}
