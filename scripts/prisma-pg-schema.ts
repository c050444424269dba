/**
 * Writes prisma/postgresql/schema.prisma from prisma/schema.prisma: the same
 * models for PostgreSQL, generating its own client (db/generated/prisma-pg).
 * One schema is edited by hand; this one follows it (a unit test checks they
 * agree). Run with `npx tsx scripts/prisma-pg-schema.ts`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { postgresSchema } from "../db/schema";

const root = new URL("..", import.meta.url).pathname;
const sqlite = readFileSync(join(root, "prisma", "schema.prisma"), "utf8");
writeFileSync(join(root, "prisma", "postgresql", "schema.prisma"), postgresSchema(sqlite));
console.log("wrote prisma/postgresql/schema.prisma");
