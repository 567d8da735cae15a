// bench:budget's accounting (bench/budget-views.ts): what the old group page cost, how a view with
// several loads counts, and that a stale answer served after a 429 fails the "no page view
// rate-limited" target as a 429 shown does.
import { describe, expect, it } from "vitest";
import { oldGroupPageState, targetsLine, viewResult } from "../../bench/budget-views";
import { toEmsQuery } from "@/lib/listing/query";

const ok = { kind: "ok", freshness: { stale: false } };
const stale = { kind: "ok", freshness: { stale: true } };
const limited = { kind: "rate-limited" };
const unavailable = { kind: "unavailable" };

describe("the old group page", () => {
  it("is a listing of that one group by ids, webhooks expanded", () => {
    const query = toEmsQuery(oldGroupPageState(42)) as { ids?: number[]; expand?: string[] };
    expect(query.ids).toEqual([42]);
    expect(query.expand).toEqual(["webhooks"]);
  });
});

describe("a page view's result", () => {
  it("is the worst of its loads: a 429 shown, then another failure, then a stale answer", () => {
    expect(viewResult([ok])).toBe("ok");
    expect(viewResult([ok, ok])).toBe("ok");
    expect(viewResult([stale])).toBe("stale");
    expect(viewResult([ok, stale])).toBe("stale");
    expect(viewResult([stale, limited])).toBe("rate-limited");
    expect(viewResult([ok, unavailable])).toBe("failed");
  });
});

describe("the targets", () => {
  const met = { pageViews: 300, apiCalls: 100, rateLimited: 0, stale: 0, exportOutcome: "finished" };

  it("are met with no view rate-limited or stale, a third of the calls and the export finished", () => {
    expect(targetsLine(met)).toBe("no page view rate-limited: yes; API calls at most a third of page views: yes (100 of 300); the export finishes: yes.");
  });

  it("are not met when a view was served a stale answer after a 429, though none showed the 429", () => {
    expect(targetsLine({ ...met, stale: 2 })).toContain("no page view rate-limited: NO (0 shown a 429, 2 served a stale answer after a 429)");
  });

  it("are not met when a view showed a 429", () => {
    expect(targetsLine({ ...met, rateLimited: 1 })).toContain("no page view rate-limited: NO (1 shown a 429, 0 served");
  });
});
