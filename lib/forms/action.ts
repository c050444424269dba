/**
 * Every server action of this site is declared through formAction(), which
 * checks the decoded arguments before the action runs: exactly `bound`
 * strings, then the previous state when the action is used with
 * useActionState, then the form. Server actions are public endpoints, and a
 * forged request can send any arguments; without this, a missing or mistyped
 * one would reach the data layer and answer 500.
 *
 * A refused call is answered 400 by the site's server (server.ts), which runs
 * every request inside `pageRequest` and turns the response of a request
 * marked refused into the refusal. (Under `next dev`, with no such server, the
 * refusal is an error: a 500.)
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Refusal } from "@/lib/site/request";

/**
 * Per request, set by server.ts: an action that refuses its arguments records
 * the refusal here, and `peer` is the address of the connection's other end
 * (the client, or the proxy in front), which no header can forge.
 */
export type PageRequest = { refusal: Refusal | null; peer?: string | null };

/**
 * One instance per process, kept on globalThis: the server and the site's
 * compiled bundle each load their own copy of this module.
 */
export const pageRequest: AsyncLocalStorage<PageRequest> = ((globalThis as { chainswePageRequest?: AsyncLocalStorage<PageRequest> }).chainswePageRequest ??= new AsyncLocalStorage());

/** The connection's peer address for the request being handled (null outside server.ts, e.g. under `next dev` alone). */
export const requestPeer = (): string | null => pageRequest.getStore()?.peer ?? null;

export class MalformedActionError extends Error {
  constructor(message: string) {
    super(`malformed form submission: ${message}`);
    this.name = "MalformedActionError";
  }
}

type Shape = {
  /** how many arguments the page binds (ids, slugs), each a string */
  bound?: number;
  /** false for an action used as a plain form action (no useActionState, so no previous state) */
  state?: boolean;
};

/** The action, with its arguments checked against its shape first. */
export function formAction<A extends unknown[], R>(shape: Shape, action: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  const bound = shape.bound ?? 0;
  const expected = bound + (shape.state === false ? 0 : 1) + 1;
  return async (...args: A) => {
    const problem =
      args.length !== expected
        ? `expected ${expected} arguments, got ${args.length}`
        : !(args.at(-1) instanceof FormData)
          ? "the last argument is not the form"
          : args.slice(0, bound).some((a) => typeof a !== "string")
            ? "a bound argument is not a string"
            : null;
    if (problem) {
      const store = pageRequest.getStore();
      if (store) store.refusal = { status: 400, error: `malformed form submission: ${problem}` };
      throw new MalformedActionError(problem);
    }
    return action(...args);
  };
}
