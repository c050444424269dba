import { describe, expect, it } from "vitest";
import { auditHref, parseAuditQuery } from "./audit-query";

describe("the audit log's URL", () => {
  it("reads a filter and a page, and writes them back", () => {
    const { query, problems } = parseAuditQuery(new URLSearchParams("action=publication_approved&actor=ann&subject=cs1&page=3"));
    expect(problems).toEqual([]);
    expect(query).toEqual({ action: "publication_approved", actor: "ann", subject: "cs1", page: 3 });
    expect(auditHref(query)).toBe("/admin?action=publication_approved&actor=ann&subject=cs1&page=3#audit-heading");
    expect(auditHref({ ...query, page: 1 })).toBe("/admin?action=publication_approved&actor=ann&subject=cs1#audit-heading");
  });

  it.each([
    ["action=explode", "action"],
    [`actor=${"a".repeat(201)}`, "actor"],
    [`subject=${"x".repeat(5000)}`, "subject"],
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=abc", "page"],
    ["page=2.5", "page"],
    ["page=1e9", "page"],
    ["page=Infinity", "page"],
  ])("names and ignores a bad value: %s", (params, field) => {
    const { query, problems } = parseAuditQuery(new URLSearchParams(params));
    expect(problems.map((p) => p.field)).toEqual([field]);
    expect(query).toEqual({ page: 1 });
  });

  it("takes a repeated parameter's first value and an empty one as none", () => {
    expect(parseAuditQuery(new URLSearchParams("page=2&page=x&actor=")).query).toEqual({ page: 2 });
  });
});
