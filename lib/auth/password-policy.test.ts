import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password-policy";

describe("passwordProblem", () => {
  it("refuses the username itself, inside the password too, whatever the case", () => {
    expect(passwordProblem("alice-chen", "alice-chen")).toMatch(/username/);
    expect(passwordProblem("my-Alice-Chen-2026", "alice-chen")).toMatch(/username/);
  });

  it("refuses common passwords of every length the length rule lets through, whatever the case", () => {
    for (const p of ["qwertyuiop", "1234567890", "Password123", "1qaz2wsx3edc", "BASKETBALL"]) expect(passwordProblem(p, "alice")).toMatch(/common/);
  });

  it("accepts a password that is neither", () => {
    expect(passwordProblem("correct horse battery staple", "alice")).toBeNull();
    expect(passwordProblem("e2e-password-42", "alice")).toBeNull();
  });
});
