import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password-policy";

describe("passwordProblem", () => {
  it("refuses the username itself, inside the password too, whatever the case", () => {
    expect(passwordProblem("alice-chen", "alice-chen")).toMatch(/username/);
    expect(passwordProblem("my-Alice-Chen-2026", "alice-chen")).toMatch(/username/);
  });

  it("refuses common passwords of every length the length rule lets through, whatever the case", () => {
    for (const p of ["qwertyuiop", "1234567890", "Password123", "1qaz2wsx3edc", "BASKETBALL"]) expect(passwordProblem(p, "alice")).toMatch(/^is too easy to guess/);
  });

  it("refuses what a guesser tries early though no list holds it: repeats, sequences, l33t words, season and year", () => {
    for (const p of ["zzzzzzzzzz", "abcdefghij", "P@ssw0rd123", "Summer2024!", "iloveyou2024", "p4$$w0rd!234"]) {
      expect(passwordProblem(p, "alice"), p).toMatch(/^is too easy to guess/);
    }
    // the estimator's reason is passed on
    expect(passwordProblem("zzzzzzzzzz", "alice")).toMatch(/repeated characters/i);
  });

  it("judges a long password by its first characters, so a hostile one costs little to check", () => {
    expect(passwordProblem(`${"a".repeat(40)}k8#Jq2$Lw9zX!`, "alice")).toMatch(/too easy/);
    expect(passwordProblem(`kx8-Jq2-Lw9z-Pt4-Hn7${"@$!0|(".repeat(30)}`, "alice")).toBeNull();
  });

  it("accepts a password that is neither", () => {
    expect(passwordProblem("correct horse battery staple", "alice")).toBeNull();
    expect(passwordProblem("e2e-password-42", "alice")).toBeNull();
    expect(passwordProblem("correct horse battery", "alice")).toBeNull();
  });
});
