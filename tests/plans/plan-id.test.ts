import { describe, expect, it } from "vitest";
import { draftParam } from "@/lib/plans/forms";
import { parsePlanId } from "@/lib/plans/plan-id";

/**
 * A plan's id from an address (issue 36 §2): the plan page, its progress route and `?plan=` of the
 * webhook edit page read it through one parser: the UUID a plan is stored with, nothing like it.
 */
describe("a plan id in an address", () => {
  const id = "0b6f3c2e-8d4a-4c1b-9f2e-3a5d7c9e1b24";

  it("is the UUID a plan is stored with", () => {
    expect(parsePlanId(id)).toBe(id);
  });

  it("is nothing else: 36 characters of hyphens and hex, upper case, a prefix or a suffix, a path", () => {
    for (const raw of ["-".repeat(36), "0b6f3c2e8d4a4c1b9f2e3a5d7c9e1b24----", id.toUpperCase(), `${id}x`, `x${id}`, id.slice(1), `../${id}`, ""]) {
      expect(parsePlanId(raw)).toBeNull();
    }
  });

  it("of ?plan= on the webhook edit page: the first of repeated values, through the one parser of search params", () => {
    expect(draftParam({ plan: [id, "x"] })).toBe(id);
    expect(draftParam({ plan: ["x", id] })).toBeNull();
    expect(draftParam(new URLSearchParams({ plan: "-".repeat(36) }))).toBeNull();
  });
});
