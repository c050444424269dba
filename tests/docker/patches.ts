/** Builds real `git diff` patches from before/after file contents, for test predictions. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Predictions } from "@/evaluator/dataset";
import type { Chain } from "@/core/schemas/dataset";
import type { PredictionLine } from "@/core/schemas/prediction";

export type FileChange = { path: string; before: string | Buffer | null; after: string | Buffer | null };

/** `binary`: git's binary patches for non-text files (`GIT binary patch`), as `git diff --binary`. */
export function patchFor(changes: FileChange[], opts: { binary?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "chainswe-patch-"));
  const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_SYSTEM: "/dev/null" };
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  try {
    git("init", "-q");
    const put = (path: string, content: string | Buffer | null) => {
      if (content === null) return rmSync(join(dir, path), { force: true });
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    };
    for (const c of changes) put(c.path, c.before);
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "before");
    for (const c of changes) put(c.path, c.after);
    git("add", "-A");
    return git("diff", "--cached", ...(opts.binary ? ["--binary"] : []), "HEAD");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Predictions with the given patch per order ("" or missing = empty patch). */
export function predictionsFor(chain: Chain, patches: Record<number, string>, system = "test-system"): Predictions {
  const bugs = new Map<number, PredictionLine>();
  for (const b of chain.bug_fixes) {
    const patch = patches[b.order];
    if (patch === undefined) continue;
    bugs.set(b.order, { continuous_id: chain.continuous_id, swebench_instance_id: b.swebench_instance_id, model_patch: patch, model_name_or_path: system });
  }
  return { path: `${system}.jsonl`, sha256: system, system, byChain: new Map([[chain.continuous_id, bugs]]), warnings: [] };
}
