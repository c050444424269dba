/**
 * Builds the demo repositories' git histories from their sources (demo/repos/<name>):
 * ordinary commits, then one fix commit per bug in chain order, so bug k+1's base commit
 * is bug k's fix commit. Everything about a commit is pinned (names, dates, config), so
 * the hashes are the same on every machine. The image builder reuses buildDemoRepos.
 */
import { chmod, copyFile, mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { git } from "./lib/proc";
import { DEMO_DIR, loadRepoSources, overlayFiles, type RepoSource } from "./lib/source";

export const DEFAULT_REPOS_DIR = path.join(DEMO_DIR, "work", "repos");

export type BuiltRepo = {
  name: string;
  /** the git repository (with work tree) */
  dir: string;
  /** the chain's base commit: the last ordinary commit */
  baseCommit: string;
  /** fix commit of bug k at index k-1 */
  fixCommits: string[];
  source: RepoSource;
};

async function commitOverlay(repo: RepoSource, dir: string, entry: RepoSource["commits"][number]): Promise<string> {
  const overlay = path.join(repo.root, entry.dir);
  for (const file of await overlayFiles(overlay)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await copyFile(path.join(overlay, file), path.join(dir, file));
    await chmod(path.join(dir, file), 0o644); // the mode is part of the commit hash
  }
  const person = repo.people[entry.author];
  if (!person) throw new Error(`${repo.name}: unknown author ${entry.author}`);
  const sign = { ...person, date: entry.date };
  await git(dir, ["add", "-A"]);
  await git(dir, ["commit", "-q", "--no-verify", "-m", entry.message], { sign });
  return (await git(dir, ["rev-parse", "HEAD"])).stdout.trim();
}

/**
 * Builds one repository from scratch next to its final place, then swaps it in, so a
 * reader of outDir/<name> (an image build, a replay) never sees a half-built repository.
 */
export async function buildRepo(repo: RepoSource, outDir: string): Promise<BuiltRepo> {
  const dir = path.join(outDir, repo.name);
  const staging = path.join(outDir, `.staging-${repo.name}-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const built = await buildHistory(repo, staging);
  const old = `${staging}-old`;
  // a concurrent build may put its own copy in place between our two renames: retry
  for (let attempt = 1; ; attempt++) {
    await rename(dir, old).catch(() => undefined);
    await rm(old, { recursive: true, force: true });
    try {
      await rename(staging, dir);
      break;
    } catch (error) {
      if (attempt >= 5) throw error;
    }
  }
  return { ...built, dir };
}

async function buildHistory(repo: RepoSource, dir: string): Promise<BuiltRepo> {
  await git(dir, ["init", "-q"]);
  let baseCommit = "";
  for (const entry of repo.commits) baseCommit = await commitOverlay(repo, dir, entry);
  const fixCommits: string[] = [];
  for (const bug of repo.bugs) fixCommits.push(await commitOverlay(repo, dir, bug));
  // leave the work tree at the base commit, where a chain starts
  await git(dir, ["checkout", "-q", "--detach", baseCommit]);
  return { name: repo.name, dir, baseCommit, fixCommits, source: repo };
}

export async function buildDemoRepos(outDir: string = DEFAULT_REPOS_DIR): Promise<BuiltRepo[]> {
  const sources = await loadRepoSources();
  return Promise.all(sources.map((repo) => buildRepo(repo, outDir)));
}
