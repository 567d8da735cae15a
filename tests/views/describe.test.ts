import { describe, expect, it } from "vitest";
import { describeViewQuery } from "@/lib/views/describe";

describe("a saved view in words", () => {
  it("says a view with no options shows the whole list", () => {
    expect(describeViewQuery("webhook-groups", "")).toBe("All webhook groups");
    expect(describeViewQuery("events", "")).toBe("All events");
  });

  it("puts filters, then the sort, in words with the page's labels", () => {
    const query = new URLSearchParams([
      ["filter", "status=live"],
      ["filter", "start_date>=2026-01-01"],
      ["sort", "-start_date"],
    ]).toString();
    expect(describeViewQuery("events", query)).toBe("Status is live · Starts on or after 1 Jan 2026 · Starts, newest first");
  });

  it("words every sort level, text and numbers too", () => {
    expect(describeViewQuery("events", "sort=-start_date,name")).toBe("Starts, newest first; then Name A–Z");
    expect(describeViewQuery("webhook-groups", "sort=-id")).toBe("ID, highest first");
    expect(describeViewQuery("webhook-groups", "sort=-name")).toBe("Name Z–A");
  });

  it("joins conditions with “or” when any of them may match", () => {
    const query = new URLSearchParams([
      ["filter", "name=*contains*sync"],
      ["filter", "id>=100"],
      ["searchCondition", "or"],
    ]).toString();
    expect(describeViewQuery("webhook-groups", query)).toBe("Name contains sync or ID at least 100");
  });

  it("lists the values of “is one of”, and timestamps with their time", () => {
    expect(describeViewQuery("events", "filter=status%3D*in*live%7Cdraft")).toBe("Status is one of live or draft");
    expect(describeViewQuery("events", "filter=updated_at%3C2026-03-05+10%3A15%3A00")).toBe("Updated before 5 Mar 2026, 10:15 UTC");
  });

  it("mentions columns, expansions, ids and rows per page briefly when they are not the defaults", () => {
    expect(describeViewQuery("webhook-groups", "fields=id,name&expand=webhooks&per-page=50")).toBe("With webhooks · Columns: ID, Name · 50 rows per page");
    expect(describeViewQuery("events", "fields=id,name,status,type_id,folder_id,capacity")).toBe("6 columns");
    expect(describeViewQuery("events", "ids=1,2,3")).toBe("Only ids 1, 2, 3");
    expect(describeViewQuery("events", "ids=1,2,3,4,5,6,7")).toBe("Only 7 chosen ids");
  });

  it("describes what a bad stored query still applies, and says the rest no longer does", () => {
    expect(describeViewQuery("events", "filter=bogus%3Dx&sort=nope")).toBe("All events · some saved options no longer apply");
    expect(describeViewQuery("events", "filter=status%3Dlive&filter=start_date%3E%3Dyesterday")).toBe("Status is live · some saved options no longer apply");
    // Unknown parameters change nothing and are not mentioned.
    expect(describeViewQuery("webhook-groups", "utm_source=mail&page=3")).toBe("All webhook groups");
    expect(describeViewQuery("webhook-groups", "%%%&&&=")).toBe("All webhook groups");
  });

  it("keeps a hostile value as text (escaping is the renderer's job) and formats only real dates", () => {
    expect(describeViewQuery("webhook-groups", `filter=${encodeURIComponent("name=*contains*<script>alert(1)</script>")}`)).toBe(
      "Name contains <script>alert(1)</script>",
    );
    expect(describeViewQuery("events", "filter=start_date%3D*beginswith*2026-13")).toBe("Starts begins with 2026-13");
  });
});
