/**
 * `chainswe admin create <username>`: a user who is site admin and reviewer,
 * how a new site gets its first admin (the web page needs one to exist).
 * `chainswe admin grant|revoke <username> reviewer|site_admin`: site roles,
 * logged in the audit log with no actor (the command line).
 */
import { Argument, type Command } from "commander";
import { z, ZodError } from "zod";
import { env } from "@/env";
import { FieldError } from "@/core/errors";
import { enumOption, parseOptions } from "./options";

const ROLES = ["reviewer", "site_admin"] as const;

/** Bad input or a missing database, said in one line with exit code 2 (1 for the database), like `dataset import`. */
async function reporting(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (e) {
    if (typeof e === "object" && e !== null && "code" in e && e.code === "P2021") {
      process.stderr.write("chainswe: the database has no ChainSWE tables: run `chainswe db migrate` first\n");
      process.exitCode = 1;
      return;
    }
    if (e instanceof FieldError) {
      process.stderr.write(`chainswe: ${e.message}\n`);
    } else if (e instanceof ZodError) {
      for (const i of e.issues) process.stderr.write(`chainswe: ${i.path.join(".") || "input"}: ${i.message}\n`);
    } else {
      throw e;
    }
    process.exitCode = 2;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // `echo pw | chainswe …` adds one newline that is not part of the password
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

export const createOptionsSchema = z.object({
  username: z.string().trim().min(1),
  passwordStdin: z.boolean().optional(),
  name: z.string().trim().min(1).optional(),
  email: z.email().optional(),
});

export const roleOptionsSchema = z.object({ username: z.string().trim().min(1), role: enumOption(ROLES) });

async function createCommand(usernameArg: string, raw: Record<string, unknown>): Promise<void> {
  const { username, ...opts } = parseOptions("admin create", createOptionsSchema, { ...raw, username: usernameArg }, ["username"]);
  await reporting(async () => {
    const password = opts.passwordStdin ? await readStdin() : env().CHAINSWE_ADMIN_PASSWORD;
    if (!password) {
      throw new FieldError("password", "give the password on standard input with --password-stdin, or in CHAINSWE_ADMIN_PASSWORD");
    }
    const { createUser } = await import("@/lib/accounts/users");
    await createUser({ username, password, name: opts.name, email: opts.email }, { isSiteAdmin: true, isReviewer: true });
    process.stdout.write(`created ${username}, site admin and reviewer\n`);
  });
}

function roleCommand(granted: boolean) {
  return (usernameArg: string, roleArg: string) => {
    const { username, role } = parseOptions(granted ? "admin grant" : "admin revoke", roleOptionsSchema, { username: usernameArg, role: roleArg }, ["username", "role"]);
    return reporting(async () => {
      const { setSiteRole } = await import("@/lib/accounts/users");
      await setSiteRole(username, role, granted, null);
      process.stdout.write(granted ? `granted ${role} to ${username}\n` : `revoked ${role} from ${username}\n`);
    });
  };
}

export function registerAdmin(program: Command): void {
  const admin = program.command("admin").description("site administrators and reviewers (the portal's database)");
  admin
    .command("create <username>")
    .description("create a user who is site admin and reviewer (e.g. the site's first admin)")
    .option("--password-stdin", "read the password from standard input (else CHAINSWE_ADMIN_PASSWORD)")
    .option("--name <name>", "display name")
    .option("--email <email>", "email address")
    .action(createCommand);
  const role = () => new Argument("<role>", "the site role").choices(ROLES);
  admin.command("grant").description("give a user a site role").argument("<username>").addArgument(role()).action(roleCommand(true));
  admin.command("revoke").description("take a site role from a user").argument("<username>").addArgument(role()).action(roleCommand(false));
}
