/**
 * `chainswe --help` lists every command without loading any command's module
 * (cli/main.ts keeps the listing): the listing must say exactly what the
 * modules register, so a command added, renamed or re-described there and not
 * here fails this test.
 */
import { describe, expect, it } from "vitest";
import { chainsweProgram, listingProgram } from "./main";

describe("the top-level help's listing", () => {
  it("is the help the registered commands print, word for word", async () => {
    const registered = await chainsweProgram(["node", "chainswe"]);
    expect(registered.commands.length).toBeGreaterThan(15);
    expect(listingProgram().helpInformation()).toBe(registered.helpInformation());
  });
});
