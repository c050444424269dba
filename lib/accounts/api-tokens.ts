/**
 * API tokens for `POST /api/v1/submissions` and `chainswe submit`. The token is
 * shown once when created; only its sha256 is stored (a random 32-byte token
 * needs no slow hash), so a leaked database leaks no usable token.
 */
import { countCreation } from "@/lib/accounts/creation-limits";
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { oneLine } from "@/core/schemas/text";
import { db } from "@/db/client";
import { apiTokenScopesSchema, columnJson, parseColumn, type ApiTokenScopes } from "@/core/schemas/columns";
import { viewerById, type Viewer } from "@/lib/accounts/users";

const PREFIX = "csw_";

export const newApiTokenSchema = z.object({
  name: oneLine(z.string().trim().min(1, "required").max(100)),
  scopes: apiTokenScopesSchema.min(1, "choose at least one scope").default(["submit", "read"]),
});

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Creates a token for the user and returns it: the only time it is seen. */
export async function createApiToken(userId: string, input: z.input<typeof newApiTokenSchema>): Promise<{ id: string; token: string }> {
  const { name, scopes } = newApiTokenSchema.parse(input);
  await countCreation("api_token", userId);
  const token = PREFIX + randomBytes(32).toString("base64url");
  const row = await db.apiToken.create({
    data: { userId, name, tokenHash: tokenHash(token), scopes: columnJson(apiTokenScopesSchema, scopes) },
    select: { id: true },
  });
  return { id: row.id, token };
}

export async function listApiTokens(userId: string) {
  const rows = await db.apiToken.findMany({
    where: { userId, revokedAt: null },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, scopes: true, createdAt: true, lastUsedAt: true },
  });
  return rows.map((r) => ({ ...r, scopes: parseColumn(apiTokenScopesSchema, r.scopes, "ApiToken.scopes") }));
}

/** Revokes one of the user's own tokens; false when there is no such token of theirs. */
export async function revokeApiToken(userId: string, tokenId: string): Promise<boolean> {
  const { count } = await db.apiToken.updateMany({ where: { id: tokenId, userId, revokedAt: null }, data: { revokedAt: new Date() } });
  return count > 0;
}

/**
 * The viewer a bearer token stands for, if the token is live and carries the
 * scope; null otherwise (the caller answers 401 without saying which).
 */
export async function viewerForToken(token: string, scope: ApiTokenScopes[number]): Promise<Viewer | null> {
  if (!token.startsWith(PREFIX)) return null;
  const row = await db.apiToken.findUnique({ where: { tokenHash: tokenHash(token) }, select: { id: true, userId: true, scopes: true, revokedAt: true } });
  if (!row || row.revokedAt) return null;
  if (!parseColumn(apiTokenScopesSchema, row.scopes, "ApiToken.scopes").includes(scope)) return null;
  await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  return viewerById(row.userId);
}
