// Issue 37 §2: "the lists filter by what the checks look at". /webhook-groups?check=<check> lists
// exactly the groups Health's check finds, page after page (the portal pages over the check's ids,
// 100 at most a call, docs/ems-api.md §4.3); "Change these…" selects the same groups; a crafted
// `check=` is a notice, never a 500 nor a filter it did not ask for. Against the sandbox over HTTP
// and the real database, as the page's own data function reads them.
//
// Checked: with lib/listing-page/check-filter.ts ignoring `check` (the list as the EMS pages it),
// "lists exactly the check's groups" fails (every group of the account is listed).
import { searchParamsToUrlQuery } from "next/dist/shared/lib/router/utils/querystring";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/access/actor";
import { saveCredential } from "@/lib/credentials/store";
import { flushEmsState } from "@/lib/ems";
import { canonicalListingQuery } from "@/lib/listing/canonical";
import type { StartedSandbox } from "@/lib/sandbox/testing";
import { startAllowedSandbox } from "@/tests/ems/support/sandbox";
import { createTeam } from "../teams/fixtures";
import { loadHealthReport } from "@/lib/health/report";
import { checkSubjectIds } from "@/lib/health/check-subjects";
import { RULE_IDS, type RuleId } from "@/lib/setup/checks";
import { changeTheseHref, checkListHref } from "@/lib/listing/href";
import { loadListingPage } from "@/lib/listing-page/page-data";
import type { ListingResultsData } from "@/lib/listing-page/page-data";
import type { PageSearchParams } from "@/lib/page-search-params";
import { loadSelection, parseNewPlanParams } from "@/lib/plans/selection";
import type { ListingResource } from "@/lib/listing/resources";

/** Large enough that the check finds several pages of groups (the demo account's 18 are one page). */
const ACCOUNT = { key: "check_filter", secret: "check-filter-secret", groups: 800, events: 300, seed: 3737 };
const CHECK = "group-without-notification-emails";
let sandbox: StartedSandbox;
const team = {} as { owner: Actor };

beforeAll(async () => {
  sandbox = await startAllowedSandbox({ accounts: [ACCOUNT] });
  await sandbox.admin.setRateLimit({ credits: 1_000_000_000 });
  team.owner = await createTeam();
  await saveCredential(team.owner, { baseUrl: sandbox.baseUrl, consumerKey: ACCOUNT.key, consumerSecret: ACCOUNT.secret }, {}, { check: false });
}, 120_000);
afterAll(async () => {
  await flushEmsState();
  await sandbox?.close();
});

const asNextPasses = (search: string): PageSearchParams => searchParamsToUrlQuery(new URLSearchParams(search)) as PageSearchParams;

async function results(resource: ListingResource, search: string): Promise<Extract<ListingResultsData, { kind: "ok" }> & { notices: string[] }> {
  // At the canonical address, where proxy.ts sends any other spelling of it.
  const canonical = canonicalListingQuery(resource, new URLSearchParams(search));
  const data = await loadListingPage(team.owner, resource, asNextPasses(canonical ?? search));
  const shown = await data.results;
  if (shown.kind !== "ok") throw new Error(`the list failed: ${JSON.stringify(shown.failure)}`);
  return { ...shown, notices: data.state.notices };
}

/** What the check finds, worked out from the whole setup (not from the stored result the list reads). */
async function expectedIds(check: RuleId = CHECK): Promise<number[]> {
  const report = await loadHealthReport(team.owner);
  if (report.kind !== "ok") throw new Error(report.kind);
  return checkSubjectIds(report.active, check);
}

describe("a list filtered by a Health check", () => {
  it("lists exactly the check's groups, page after page, each without notification emails", async () => {
    const expected = await expectedIds();
    expect(expected.length).toBeGreaterThan(100); // more than one page of 100, several of 20
    const href = checkListHref(CHECK);
    expect(href).toBe(`/webhook-groups?check=${CHECK}`);

    const listed: number[] = [];
    let pageCount = 0;
    for (let page = 1; page <= 100; page++) {
      const shown = await results("webhook-groups", `check=${CHECK}&page=${page}`);
      expect(shown.notices).toEqual([]);
      expect(shown.check?.total).toBe(expected.length);
      expect(shown.meta).toMatchObject({ totalCount: expected.length, perPage: 20, currentPage: page });
      for (const row of shown.items) expect(row.notification_emails ?? []).toEqual([]);
      listed.push(...shown.items.map((item) => Number(item.id)));
      pageCount = shown.meta.pageCount;
      if (page >= pageCount) break;
    }
    expect(pageCount).toBe(Math.ceil(expected.length / 20));
    // Pages follow the ids: in order, none twice, none missing.
    expect(listed).toEqual(expected);
  });

  it("every check's 'Show in the list' lists its records on the webhooks, groups or events list", async () => {
    let found = 0;
    for (const check of RULE_IDS) {
      const expected = await expectedIds(check);
      found += expected.length;
      const href = new URL(checkListHref(check), "http://portal");
      const shown = await results(href.pathname.slice(1) as ListingResource, `${href.search.slice(1)}&per-page=100`);
      expect(shown.notices, check).toEqual([]);
      expect(shown.check?.total, check).toBe(expected.length);
      // The page holds the first hundred ids; the list's sort (events: by start date) orders them.
      expect(
        shown.items.map((item) => Number(item.id)).sort((a, b) => a - b),
        check,
      ).toEqual(expected.slice(0, 100));
    }
    expect(found).toBeGreaterThan(0);
  });

  it("at 200 rows a page shows 100, the most ids one call takes", async () => {
    const expected = await expectedIds();
    const shown = await results("webhook-groups", `check=${CHECK}&per-page=200`);
    expect(shown.meta.perPage).toBe(100);
    expect(shown.items.map((item) => Number(item.id))).toEqual(expected.slice(0, 100));
    const second = await results("webhook-groups", `check=${CHECK}&per-page=200&page=2`);
    expect(second.items.map((item) => Number(item.id))).toEqual(expected.slice(100, 200));
  });

  it("narrows by the list's other filters within the check's records", async () => {
    const expected = await expectedIds();
    const shown = await results("webhook-groups", `check=${CHECK}&filter=${encodeURIComponent("id>=1")}&ids=${expected.slice(0, 3).join(",")},999999`);
    expect(shown.items.map((item) => Number(item.id))).toEqual(expected.slice(0, 3));
    expect(shown.check?.total).toBe(3);
  });

  it("'Change these…' selects exactly the groups the list showed", async () => {
    const expected = await expectedIds();
    const shown = await results("webhook-groups", `check=${CHECK}`);
    const { searchParams } = new URL(
      changeTheseHref({ ...(await loadListingPage(team.owner, "webhook-groups", asNextPasses(`check=${CHECK}`))).state }),
      "http://portal",
    );
    expect(searchParams.get("check")).toBe(CHECK);
    const request = parseNewPlanParams(searchParams);
    const selection = await loadSelection(team.owner, request.resource, request.options);
    if (selection.kind !== "ok") throw new Error(selection.kind);
    expect(selection.records.map((record) => record.id)).toEqual(expected);
    expect(selection.total).toBe(shown.check?.total);
  });

  it("answers a crafted check= with a notice and the whole list, never an error", async () => {
    const whole = await results("webhook-groups", "");
    for (const [search, notice] of [
      ["check=__proto__", "Health check: “__proto__” is not one of Health's checks. It was ignored."],
      ["check=constructor", "Health check: “constructor” is not one of Health's checks. It was ignored."],
      [`check=${encodeURIComponent("<script>alert(1)</script>")}`, "Health check: “<script>alert(1)</script>” is not one of Health's checks. It was ignored."],
      [`check=${"x".repeat(5000)}`, `Health check: “${"x".repeat(60)}” is not one of Health's checks. It was ignored.`],
      ["check=plain-http-url", "Health check: “Webhook URL is not HTTPS” finds webhooks, not webhook groups. It was ignored."],
    ] as const) {
      const shown = await results("webhook-groups", search);
      expect(shown.notices, search.slice(0, 40)).toEqual([notice]);
      expect(shown.check).toBeNull();
      expect(shown.meta.totalCount).toBe(whole.meta.totalCount);
    }
  });
});
