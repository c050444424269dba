/**
 * GET /api/v1/dataset/[version]/records: the version's records as JSON Lines,
 * the dataset format (SPEC §1), one chain per line in the version's order, each
 * in canonical JSON (keys sorted);
 * `?format=manifest`: its frozen manifest (each record's sha256, the parent
 * version) and release notes (SPEC §8). Public, for every version, old ones
 * included; 404 for an unknown version. Held-out chains (SPEC §8) are in
 * neither but for reviewers.
 */
import { z } from "zod";
import { canonicalJson } from "@/core/grading/version";
import { getChains, getVersionRelease } from "@/lib/dataset/data";
import { chainsHiddenFrom } from "@/lib/dataset/held-out";
import { getRequestViewer } from "@/lib/auth/viewer";
import { NotFoundError } from "@/core/errors";
import { errorResponse, json } from "@/lib/http/requests";
import { parseQuery } from "@/lib/view-query";

const recordsQuerySchema = z.object({ format: z.enum(["jsonl", "manifest"]).default("jsonl") });

export async function GET(req: Request, { params }: { params: Promise<{ version: string }> }): Promise<Response> {
  try {
    const { version } = await params;
    const q = parseQuery(recordsQuerySchema, new URL(req.url).searchParams);
    const release = await getVersionRelease(version);
    if (!release) throw new NotFoundError(`dataset version ${version}`);
    const hidden = await chainsHiddenFrom(await getRequestViewer(req, "read"), { version });
    if (q.format === "manifest") {
      const manifest = release.manifest && { ...release.manifest, records: release.manifest.records.filter((r) => !hidden.has(r.continuous_id)) };
      return json({ version, ...release, manifest, notes: release.notes.filter((n) => !hidden.has(n.chain)) });
    }
    // canonical JSON (keys sorted): each line's sha256 is the manifest's entry, and every graded bug's record_sha256
    const lines = (await getChains(version)).filter((c) => !hidden.has(c.continuous_id)).map((c) => `${canonicalJson(c)}\n`).join("");
    return new Response(lines, {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="chainswe-${version.replace(/[^A-Za-z0-9._-]/g, "_")}.jsonl"`,
        "cache-control": "no-store",
      },
    });
  } catch (e) {
    return errorResponse(e);
  }
}
