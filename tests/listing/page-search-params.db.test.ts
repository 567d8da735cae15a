// Issue 34 §3: every page reads its URL through the one parser (lib/page-search-params.ts, then the
// page's own parser in lib/), which keeps repeated parameters and lets no control character through.
// `/plans?q=%00` was a 500: PostgreSQL refuses a NUL in a text value, and the title search sent it.
// The objects are built with Next.js's own function, as the pages get them.
//
// Checked: with pageSearchParams passing values through as they came (the control characters kept),
// the NUL tests fail, the plans list's with PostgreSQL's refusal.
import { searchParamsToUrlQuery } from "next/dist/shared/lib/router/utils/querystring";
import { describe, expect, it } from "vitest";
import { parseAuditFilters } from "@/lib/audit-log/filters";
import { parseCoverageParams } from "@/lib/coverage/search-params";
import { parseHealthParams } from "@/lib/health/list";
import { parseAsOfParam } from "@/lib/history/as-of";
import { parseFeedParams } from "@/lib/history/feed-params";
import { parseListingSearchParams } from "@/lib/listing/search-params";
import { pageNumberParam, pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";
import { draftParam } from "@/lib/plans/forms";
import { parsePlanListParams } from "@/lib/plans/list-params";
import { listPlans } from "@/lib/plans/page";
import { parseNewPlanParams } from "@/lib/plans/selection";
import { directoryPageNumber } from "@/lib/views/directory";
import { parseNewViewParams } from "@/lib/views/validation";
import { createTeam } from "../teams/fixtures";

const asNextPasses = (query: string): PageSearchParams => searchParamsToUrlQuery(new URLSearchParams(query)) as PageSearchParams;
const ALL_FILTERS = ["review", "open", "applied", "stopped", "reverted", "closed", "all"] as const;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe("control characters never come out of the parser", () => {
  it("a NUL, a line break or a C1 character becomes a space, in Next.js's object and in a URLSearchParams", () => {
    expect(pageSearchParams(asNextPasses("q=a%00b&q=c%C2%85d&x%00y=1")).toString()).toBe("q=a+b&q=c+d&x+y=1");
    expect(pageSearchParams(new URLSearchParams("q=%00")).get("q")).toBe(" ");
    // Nothing to clean: the same object back, so a route handler's query costs nothing more.
    const clean = new URLSearchParams("q=abc&page=2");
    expect(pageSearchParams(clean)).toBe(clean);
  });

  it("a line break still separates two ids of the ids box", () => {
    expect(parseListingSearchParams("webhooks", asNextPasses("ids=12%0A34")).ids).toEqual([12, 34]);
  });

  it("no text any page parser hands on holds one", () => {
    const nul = "%00%01%1F%7F";
    const texts = [
      ...parseListingSearchParams("webhooks", asNextPasses(`filter=name%3D*contains*a${nul}b`)).filters.map((filter) => filter.value),
      parsePlanListParams(asNextPasses(`q=a${nul}`), ALL_FILTERS).query,
      parseFeedParams(asNextPasses(`person=a${nul}`)).person,
      parseCoverageParams(asNextPasses(`q=a${nul}`)).q,
      parseHealthParams(asNextPasses(`q=a${nul}&host=h${nul}`)).q,
      parseHealthParams(asNextPasses(`host=h${nul}`)).host,
      parseNewViewParams(asNextPasses(`page=webhooks&query=filter%3Dname%253D*contains*a${nul}`)).query,
      parseNewPlanParams(asNextPasses(`resource=webhooks&fix=a${nul}&key=k${nul}`)).fix!.key,
      parseNewPlanParams(asNextPasses(`fix=a${nul}`)).fix!.ruleId,
    ];
    for (const text of texts) expect(text).not.toMatch(CONTROL);
    expect(parseAuditFilters(asNextPasses(`person=a${nul}`)).filters.person).toBeNull();
  });

  it("/plans?q=%00 lists plans (it was PostgreSQL's refusal, a 500)", async () => {
    const owner = await createTeam();
    const { filter, page, mine, query } = parsePlanListParams(asNextPasses("q=%00"), ALL_FILTERS);
    await expect(listPlans(owner, filter, page, { mine, query })).resolves.toMatchObject({ total: 0 });
  });
});

describe("repeated parameters: each page's parser reads them as its URL means", () => {
  it("/plans/new keeps every filter of a list (the first value of its own names)", () => {
    const request = parseNewPlanParams(asNextPasses("resource=webhook-groups&resource=webhooks&filter=name%3Da&filter=id%3E3&searchCondition=or"));
    expect(request.resource).toBe("webhook-groups");
    expect(request.options.getAll("filter")).toEqual(["name=a", "id>3"]);
    expect(parseListingSearchParams("webhook-groups", request.options).filters).toHaveLength(2);
  });

  it("the plans list, a plan's page and the views directory: the first value", () => {
    expect(parsePlanListParams(asNextPasses("status=applied&status=all&mine=1&mine=0&page=3&page=9"), ALL_FILTERS)).toEqual({
      filter: "applied",
      unknownStatus: null,
      mine: true,
      query: "",
      page: 3,
    });
    expect(parsePlanListParams(asNextPasses("status=review"), ["open", "all"])).toMatchObject({ filter: "open", unknownStatus: "review" });
    expect(directoryPageNumber(asNextPasses("page=4&page=2"))).toBe(4);
    for (const page of ["", "0", "-1", "1.5", "1e3", "abc", "99999999999999999999"]) expect(pageNumberParam(new URLSearchParams({ page }))).toBe(1);
    expect(pageNumberParam(new URLSearchParams("page=123456789"), 50)).toBe(50);
  });

  it("a saved view's page, a webhook edit's draft and a group's past: the first value", () => {
    expect(parseNewViewParams(asNextPasses("page=events&page=webhooks&query=a%3D1&query=b%3D2"))).toEqual({ page: "events", query: "a=1" });
    expect(parseNewViewParams(asNextPasses("page=nope"))).toEqual({ page: null, query: "" });
    const id = "0b7f1a52-7c8e-4c1a-9d0e-3f1e2d4c5b6a";
    expect(draftParam(asNextPasses(`plan=${id}&plan=x`))).toBe(id);
    expect(draftParam(asNextPasses("plan=../x"))).toBeNull();
    expect(parseAsOfParam(asNextPasses("asOf=2026-11-20&asOf=x"))).toEqual(new Date("2026-11-20T23:59:59Z"));
    expect(parseAsOfParam(asNextPasses("asOf=2026-02-30"))).toBe("invalid");
    expect(parseAsOfParam(asNextPasses(""))).toBeNull();
  });
});
