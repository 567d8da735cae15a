import { describe, expect, it } from "vitest";
import { plural, pluralWord } from "@/lib/text/plural";

describe("plural", () => {
  it("writes one thing in the singular and every other count in the plural, grouped by thousands", () => {
    expect(plural(1, "webhook")).toBe("1 webhook");
    expect(plural(0, "webhook")).toBe("0 webhooks");
    expect(plural(2, "webhook")).toBe("2 webhooks");
    expect(plural(1_200, "entry", "entries")).toBe("1,200 entries");
    expect(plural(1, "entry", "entries")).toBe("1 entry");
  });

  it("gives the noun alone for a count written elsewhere", () => {
    expect(pluralWord(1, "attempt")).toBe("attempt");
    expect(pluralWord(3, "attempt")).toBe("attempts");
    expect(pluralWord(1, "plan waits", "plans wait")).toBe("plan waits");
    expect(pluralWord(4, "plan waits", "plans wait")).toBe("plans wait");
  });
});
