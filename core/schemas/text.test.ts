import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CONTROL_CHARACTERS_MESSAGE, oneLine } from "./text";
import { teamNameSchema } from "@/lib/teams/data";
import { systemInputSchema } from "@/lib/teams/systems";
import { newApiTokenSchema } from "@/lib/accounts/api-tokens";
import { signUpSchema } from "@/lib/accounts/users";
import { runManifestSchema } from "./manifest";

const HOSTILE = ["Acme\r\nLabs", "Acme\nLabs", "Acme\tLabs", "Acme\u0000", "Acme\u007f", "Acme\u0085", "Acme\u2028Labs", "\u202eAcme", "Acme\u2066x"];
const messages = (r: { success: boolean; error?: z.ZodError }) => (r.success ? [] : r.error!.issues.map((i) => i.message));

describe("oneLine", () => {
  it("refuses control characters anywhere in the text, whitespace controls inside it too", () => {
    const name = oneLine(z.string().trim());
    for (const s of HOSTILE) expect(messages(name.safeParse(s)), JSON.stringify(s)).toEqual([CONTROL_CHARACTERS_MESSAGE]);
    for (const s of ["Acme Labs", "Ünïcødé 名前", "a-b_c (d) / e"]) expect(name.safeParse(s).success, s).toBe(true);
  });

  it("guards every name a person types: team, system fields, token, display name, manifest labels", () => {
    const system = { name: "agent", model: "m", scaffold: "s", contextConfig: "c" };
    for (const s of HOSTILE) {
      const what = JSON.stringify(s);
      expect(messages(teamNameSchema.safeParse(s)), what).toContain(CONTROL_CHARACTERS_MESSAGE);
      for (const field of ["name", "model", "scaffold", "contextConfig"]) expect(messages(systemInputSchema.safeParse({ ...system, [field]: s })), `${field} ${what}`).toContain(CONTROL_CHARACTERS_MESSAGE);
      expect(messages(systemInputSchema.safeParse({ ...system, links: [{ label: s, url: "https://x.example" }] })), what).toContain(CONTROL_CHARACTERS_MESSAGE);
      expect(messages(newApiTokenSchema.safeParse({ name: s, scopes: ["read"] })), what).toContain(CONTROL_CHARACTERS_MESSAGE);
      expect(messages(signUpSchema.safeParse({ username: "ann-x", password: "correct horse battery", name: s })), what).toContain(CONTROL_CHARACTERS_MESSAGE);
      const manifest = runManifestSchema.safeParse({ agent: { name: s, version: "1" }, model: s });
      expect(messages(manifest), what).toContain(CONTROL_CHARACTERS_MESSAGE);
    }
  });
});
