/** Browser steps the specs share: a person signing up, a reviewer signing in, a team with one system, an API token, a screenshot. */
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { chainswe } from "./site";

export const PASSWORD = "correct horse battery";

export async function signUp(page: Page, username: string): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/teams$/);
}

export async function signIn(page: Page, username: string): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("link", { name: username })).toBeVisible();
}

/** A site admin (and so a reviewer) made on the command line, as an operator would, signed in on `page`. */
export async function signInAsReviewer(page: Page, username: string): Promise<void> {
  chainswe(process.env.E2E_DATABASE_URL!, ["admin", "create", username, "--password-stdin"], `${PASSWORD}\n`);
  await signIn(page, username);
}

/** A screenshot of the page (whole, unless told otherwise) among the test's outputs, to look at after a run. */
export async function shot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: opts.fullPage ?? true });
}

/** On /teams after sign-up: creates the team and one system; answers the team page's path. */
export async function createTeamWithSystem(page: Page, team: string, system: { name: string; model: string }): Promise<string> {
  await page.getByLabel("Team name").fill(team);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { name: team })).toBeVisible();
  await page.getByLabel("System name").fill(system.name);
  await page.getByLabel("Model").fill(system.model);
  await page.getByLabel("Scaffold").fill("scripted");
  await page.getByLabel("Context configuration").fill("Baseline");
  await page.getByRole("button", { name: "Create system" }).click();
  await expect(page.getByRole("cell", { name: system.model })).toBeVisible();
  return new URL(page.url()).pathname;
}

/** Creates an API token on /account with the given scopes; answers the token, shown once. */
export async function createToken(page: Page, name: string, scopes: ("submit" | "read")[]): Promise<string> {
  await page.goto("/account");
  await page.getByLabel("Token name").fill(name);
  for (const scope of ["submit", "read"] as const) {
    await page.getByRole("checkbox", { name: new RegExp(`^${scope}\\b`) }).setChecked(scopes.includes(scope));
  }
  await page.getByRole("button", { name: "Create token" }).click();
  const token = await page.getByLabel("New API token").inputValue();
  expect(token).toMatch(/^csw_/);
  return token;
}

/** Removes a dataset version a test made from the shared site's database (its chains and rules with it), so the next spec does not find it. */
export function deleteVersion(version: string): void {
  const sqlite = new Database(new URL(process.env.E2E_DATABASE_URL!).pathname);
  try {
    sqlite.pragma("foreign_keys = ON");
    sqlite.prepare(`DELETE FROM DatasetVersion WHERE version = ?`).run(version);
  } finally {
    sqlite.close();
  }
}
