// Issue 34 §3: "a selection is exactly what the list showed". "Change these…" carries a list's options
// to /plans/new, where Next.js hands a repeated `filter=` as an array: the page kept only string
// values, so with two filters both were dropped and the plan selected every webhook. Here each list
// URL goes the whole way, as the pages take it (the object Next.js builds, by its own function): the
// listing's rows, every page of them; the list's "Change these…" link; the selection /plans/new makes
// of that link; and the plan drafted from it. All four must be exactly the records the EMS API
// answers for the same conditions.
//
// Checked: with /plans/new's parsing put back as it was (string values only), every case fails: the
// filters are dropped, so the selection is all 511 webhooks (or all 40 ids asked for).
import { searchParamsToUrlQuery } from "next/dist/shared/lib/router/utils/querystring";
import { describe, expect, it } from "vitest";
import type { WebhookQuery } from "@/lib/ems/query";
import type { SearchCondition } from "@/lib/ems/contract";
import { canonicalListingQuery } from "@/lib/listing/canonical";
import { changeTheseHref } from "@/lib/listing/href";
import { formatFilter } from "@/lib/listing/filters";
import { loadListingPage } from "@/lib/listing-page/page-data";
import type { PageSearchParams } from "@/lib/page-search-params";
import { draftPlan } from "@/lib/plans/draft";
import { loadSelection, parseNewPlanParams } from "@/lib/plans/selection";
import { readSteps } from "@/lib/plans/store";
import { planTeamPerTest } from "./support/plan-team";

const team = planTeamPerTest();

/** The object a page gets for `?<query>`, as Next.js makes it (a repeated name becomes a list). */
const asNextPasses = (params: URLSearchParams): PageSearchParams => searchParamsToUrlQuery(params) as PageSearchParams;

interface ListCase {
  name: string;
  search: SearchCondition[];
  searchCondition?: "or";
  /** `ids=` of the account's first this many webhooks (a coverage cell's or a finding's kind of list). */
  firstIds?: number;
}

/** One API search condition (docs/ems-api.md §4.4), written as the API writes it: field, operator, value. */
const where = (field: string, operator: SearchCondition["operator"], value: string): SearchCondition => ({ field, operator, value });

const CASES: ListCase[] = [
  { name: "two filters", search: [where("trigger_object", "=", "registrant"), where("content_type", "=", "post")] },
  { name: "three filters", search: [where("url", "=*contains*", "zapier"), where("enabled", "=", "1"), where("content_type", "=", "json")] },
  { name: "searchCondition=or", search: [where("enabled", "=", "0"), where("any_event", "=", "1")], searchCondition: "or" },
  { name: "a search of the names with a filter", search: [where("name", "=*contains*", "Finance"), where("trigger_object", "!=", "contact")] },
  { name: "ids= with filters", search: [where("content_type", "=", "json"), where("url", "!=*contains*", "zapier")], firstIds: 40 },
];

/** A list's URL at its canonical address, where proxy.ts sends any other spelling of it. */
const atCanonical = (params: URLSearchParams) => new URLSearchParams(canonicalListingQuery("webhooks", params) ?? params);

/** The list's URL for a case. */
function listUrl(list: ListCase, ids: number[] | undefined): URLSearchParams {
  const params = new URLSearchParams();
  for (const condition of list.search) params.append("filter", formatFilter(condition));
  if (list.searchCondition) params.set("searchCondition", list.searchCondition);
  if (ids) params.set("ids", ids.join(","));
  return atCanonical(params);
}

/** What the EMS API answers for the case's conditions, every page. */
async function apiIds(list: ListCase, ids: number[] | undefined): Promise<number[]> {
  const found: number[] = [];
  const query = { search: list.search, searchCondition: list.searchCondition ?? "and", ids, fields: ["id"], perPage: 200 } satisfies WebhookQuery;
  for await (const page of team.client().pages("webhooks", query)) found.push(...page.items.map((item) => item.id));
  return found.sort((a, b) => a - b);
}

/** The rows the list shows for its URL, every page (the webhooks list's own data function). */
async function listedIds(url: URLSearchParams): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const data = await loadListingPage(team.owner, "webhooks", asNextPasses(atCanonical(new URLSearchParams([...url, ["per-page", "200"], ["page", String(page)]]))));
    const results = await data.results;
    if (results.kind !== "ok") throw new Error(`the list failed: ${JSON.stringify(results.failure)}`);
    ids.push(...results.items.map((item) => Number(item.id)));
    if (page >= results.meta.pageCount) break;
  }
  return ids.sort((a, b) => a - b);
}

describe("a plan's selection from a list's options is exactly what the list showed", () => {
  it.each(CASES)("$name", async (list) => {
    const first = await team.client().listWebhooks({ fields: ["id"], perPage: list.firstIds ?? 1, sort: [{ field: "id", direction: "asc" }] });
    const ids = list.firstIds ? first.items.map((hook) => hook.id) : undefined;
    const expected = await apiIds(list, ids);
    // The conditions narrow the list: a selection of every webhook (or of every id asked for) would not pass.
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(ids?.length ?? first.meta.totalCount);

    const url = listUrl(list, ids);
    expect(await listedIds(url)).toEqual(expected);

    // The list's "Change these…" link, followed: what /plans/new is handed, then selects.
    const list1 = await loadListingPage(team.owner, "webhooks", asNextPasses(url));
    const href = changeTheseHref(list1.state);
    const request = parseNewPlanParams(asNextPasses(new URL(href, "http://portal.test").searchParams));
    expect(request.resource).toBe("webhooks");
    const selection = await loadSelection(team.owner, request.resource, request.options);
    if (selection.kind !== "ok") throw new Error(`the selection failed: ${JSON.stringify(selection)}`);
    expect(selection.notices).toEqual([]);
    expect(selection.total).toBe(expected.length);
    const selected = selection.records.map((record) => record.id).sort((a, b) => a - b);
    expect(selected).toEqual(expected);

    // The bulk form posts the selection's ids: a move to a group none of them is in changes each one.
    const groups = (await team.client().listWebhookGroups({ perPage: 200 })).items.map((group) => group.id);
    const inSelection = new Set((await team.client().listWebhooks({ ids: expected, fields: ["id", "group_id"], perPage: 200 })).items.map((hook) => hook.group_id));
    const elsewhere = groups.find((id) => !inSelection.has(id))!;
    const { planId } = await draftPlan(team.owner, {
      title: `Selection: ${list.name}`,
      edits: [{ kind: "webhooks.bulk", ids: selected, edit: { kind: "move-to-group", groupId: elsewhere } }],
    });
    const steps = await readSteps(planId);
    expect(steps.map((step) => step.operation.recordId!).sort((a, b) => a - b)).toEqual(expected);
  });
});
