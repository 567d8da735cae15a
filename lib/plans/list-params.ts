import { pageNumberParam, pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";
import { PLAN_QUERY_MAX, type PlanListFilter } from "./page";

export interface PlanListParams {
  filter: PlanListFilter;
  /** The `status=` asked for when it is not a filter this person has (the page says so), else null. */
  unknownStatus: string | null;
  mine: boolean;
  query: string;
  page: number;
}

/**
 * `/plans?status=&mine=1&q=&page=`, through the one parser of a page's URL (a repeated parameter
 * counts by its first value; control characters never reach the title search's SQL). `filters`: the
 * ones this person may use ("review" is for owners and admins).
 */
export function parsePlanListParams(input: URLSearchParams | PageSearchParams, filters: readonly PlanListFilter[]): PlanListParams {
  const params = pageSearchParams(input);
  const status = params.get("status") ?? "open";
  const filter = filters.find((option) => option === status) ?? "open";
  return {
    filter,
    unknownStatus: filter !== status && status !== "open" ? status : null,
    mine: params.get("mine") === "1",
    query: (params.get("q") ?? "").trim().slice(0, PLAN_QUERY_MAX),
    page: pageNumberParam(params),
  };
}
