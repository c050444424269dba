/** Browser steps the specs share: a person signing up, a team with one system, an API token. */
import { expect, type Page } from "@playwright/test";

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
