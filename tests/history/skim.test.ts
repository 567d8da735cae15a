import { describe, expect, it } from "vitest";
import { changeBadge, changeDiff, textDiff } from "@/lib/history/skim";

const changed = (field: string, before: unknown, after: unknown) => ({ change: "changed" as const, field, before, after });

describe("a change as the feed skims it", () => {
  it("names its kind in a badge", () => {
    expect(changeBadge({ change: "added", field: null, after: null }).kind).toBe("added");
    expect(changeBadge({ change: "removed", field: null, after: null }).kind).toBe("removed");
    expect(changeBadge(changed("enabled", true, false))).toEqual({ kind: "disabled", label: "Disabled" });
    expect(changeBadge(changed("enabled", false, true))).toEqual({ kind: "enabled", label: "Enabled" });
    expect(changeBadge(changed("url", "a", "b")).label).toBe("URL");
    expect(changeBadge(changed("headers", [], [])).label).toBe("Headers");
    expect(changeBadge(changed("trigger_on_delete", true, false)).kind).toBe("triggers");
    expect(changeBadge(changed("notification_emails", [], [])).label).toBe("Notification emails");
  });

  it("marks the changed middle of a text, and nothing of what both sides share", () => {
    expect(textDiff("https://a.example.com/in", "https://b.example.com/in")).toEqual({ prefix: "https://", removed: "a", added: "b", suffix: ".example.com/in" });
    expect(textDiff("abc", "abc")).toEqual({ prefix: "abc", removed: "", added: "", suffix: "" });
    expect(textDiff("ab", "abab")).toEqual({ prefix: "ab", removed: "", added: "ab", suffix: "" });
    expect(changeDiff(changed("url", "https://user:pw@a.example.com/x", "https://a.example.com/y"))).toMatchObject({ kind: "text" });
    // Credentials in a URL's authority never reach the diff.
    expect(JSON.stringify(changeDiff(changed("url", "https://user:pw@a.example.com/x", "https://a.example.com/y")))).not.toContain("pw");
  });

  it("lists the events added and removed; names headers, never their values", () => {
    expect(changeDiff(changed("event_ids", [1, 2], [2, 3]))).toEqual({ kind: "items", field: "event_ids", added: ["#3"], removed: ["#1"] });
    const diff = changeDiff(
      changed(
        "headers",
        [
          { key: "Authorization", hash: "h1" },
          { key: "X-Old", hash: "h2" },
        ],
        [
          { key: "authorization", hash: "h9" },
          { key: "X-New", hash: "h3" },
        ],
      ),
    );
    expect(diff).toEqual({ kind: "items", field: "headers", added: ["authorization (new value)", "X-New"], removed: ["Authorization (old value)", "X-Old"] });
    expect(JSON.stringify(diff)).not.toMatch(/h1|h2|h3|h9/);
    expect(changeDiff({ change: "added", field: null, before: null, after: { name: "x" } })).toEqual({ kind: "none" });
  });
});
