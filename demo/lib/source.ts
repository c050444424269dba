/**
 * The declarative source of a demo repository (demo/repos/<name>/repo.json plus file trees):
 * ordinary commits as file overlays, then one overlay per bug holding the full post-fix
 * content of every file the fix changes. Files under tests/ form the test patch, all
 * others the gold patch; git computes the diffs.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

export const DEMO_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const SOURCES_DIR = path.join(DEMO_DIR, "repos");

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, "expected YYYY-MM-DDTHH:MM:SSZ");

const commitSchema = z.object({
  dir: z.string(),
  author: z.string(),
  date: isoDate,
  message: z.string().min(1),
});

const bugSchema = commitSchema.extend({
  FAIL_TO_PASS: z.array(z.string()).min(1),
  PASS_TO_PASS: z.array(z.string()),
});

export const repoSourceSchema = z.object({
  /** the Python package directory, e.g. "inikit" */
  package: z.string(),
  summary: z.string(),
  people: z.record(z.string(), z.object({ name: z.string(), email: z.string() })),
  commits: z.array(commitSchema).min(1),
  bugs: z.array(bugSchema).min(3),
});

export type RepoSource = z.infer<typeof repoSourceSchema> & { name: string; root: string };
export type BugSource = RepoSource["bugs"][number];

/** The overlay file a bug directory holds besides its files: the issue text. */
export const ISSUE_FILE = "issue.md";

export function isTestFile(file: string): boolean {
  return file.startsWith("tests/");
}

export async function loadRepoSources(): Promise<RepoSource[]> {
  const names = (await readdir(SOURCES_DIR)).sort();
  const out: RepoSource[] = [];
  for (const name of names) {
    const root = path.join(SOURCES_DIR, name);
    if (!(await stat(root)).isDirectory()) continue;
    const raw: unknown = JSON.parse(await readFile(path.join(root, "repo.json"), "utf8"));
    const parsed = repoSourceSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`demo/repos/${name}/repo.json: ${parsed.error.message}`);
    out.push({ ...parsed.data, name, root });
  }
  return out;
}

/** Relative paths of every file under dir (sorted, "/"-separated), skipping the issue text at its top. */
export async function overlayFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    for (const entry of entries) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (child !== ISSUE_FILE) out.push(child);
    }
  }
  await walk("");
  return out.sort();
}

export async function readIssue(repo: RepoSource, bug: BugSource): Promise<string> {
  return readFile(path.join(repo.root, bug.dir, ISSUE_FILE), "utf8");
}
