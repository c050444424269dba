/**
 * formAction: a server action's decoded arguments are checked against its
 * shape before it runs; a refusal is recorded for the request (server.ts
 * answers it 400) and the action never runs.
 */
import { describe, expect, it } from "vitest";
import { MalformedActionError, formAction, pageRequest } from "@/lib/forms/action";
import type { Refusal } from "@/lib/site/request";

const form = new FormData();

describe("formAction", () => {
  const calls: unknown[][] = [];
  const withState = formAction({ bound: 2 }, async (slug: string, id: string, _prev: unknown, f: FormData) => {
    calls.push([slug, id, f]);
    return "ran";
  });
  const plain = formAction({ state: false }, async (f: FormData) => (f instanceof FormData ? "ran" : "no"));

  it("runs the action when the arguments have its shape", async () => {
    expect(await withState("acme", "c1", null, form)).toBe("ran");
    expect(await plain(form)).toBe("ran");
    expect(calls).toEqual([["acme", "c1", form]]);
  });

  it("refuses a wrong count, a missing form or a bound argument that is not a string; records the refusal; never runs", async () => {
    const forged: [string, unknown[]][] = [
      ["expected 4 arguments, got 3", ["acme", null, form]],
      ["expected 4 arguments, got 5", ["acme", "c1", "x", null, form]],
      ["the last argument is not the form", ["acme", "c1", null, "form"]],
      ["a bound argument is not a string", ["acme", { id: 1 }, null, form]],
    ];
    for (const [problem, args] of forged) {
      const store: { refusal: Refusal | null } = { refusal: null };
      const call = pageRequest.run(store, () => (withState as (...a: unknown[]) => Promise<string>)(...args));
      await expect(call).rejects.toBeInstanceOf(MalformedActionError);
      expect(store.refusal).toEqual({ status: 400, error: `malformed form submission: ${problem}` });
    }
    await expect((plain as (...a: unknown[]) => Promise<string>)(null, form)).rejects.toThrow("expected 1 arguments, got 2");
    expect(calls).toHaveLength(1);
  });
});
