import { describe, expect, it, vi } from "vitest";

// a build-time marker that keeps this module out of client bundles; nothing to run here
vi.mock("server-only", () => ({}));

import { ForbiddenError, UnauthorizedError } from "@/core/errors";
import { getActingViewer } from "@/lib/auth/viewer";

const post = (headers: Record<string, string>) => new Request("http://chainswe.example.org/api/v1/submissions", { method: "POST", headers: { host: "chainswe.example.org", ...headers } });

describe("getActingViewer", () => {
  it("answers a request with neither token nor cookie as not signed in (401), whatever its Origin", async () => {
    await expect(getActingViewer(post({}), "submit")).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(getActingViewer(post({ origin: "https://evil.example" }), "submit")).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("judges a request carrying a cookie by its Origin before reading the session (403 cross-site)", async () => {
    await expect(getActingViewer(post({ cookie: "next-auth.session-token=x" }), "submit")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(getActingViewer(post({ cookie: "next-auth.session-token=x", origin: "https://evil.example" }), "submit")).rejects.toBeInstanceOf(ForbiddenError);
  });
});
