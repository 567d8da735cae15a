import { pageNumberParam, pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";

/** `/inbox?show=unread&page=2`: which items and which page, the whole state of the list. */
export interface InboxParams {
  show: "all" | "unread";
  page: number;
}

export const INBOX_SHOW = ["all", "unread"] as const;

/** Through the one parser of a page's URL: an unknown `show` is "all", a bad page is the first. */
export function parseInboxParams(input: URLSearchParams | PageSearchParams): InboxParams {
  const params = pageSearchParams(input);
  return { show: params.get("show") === "unread" ? "unread" : "all", page: pageNumberParam(params) };
}

/** The list's address for a state (the defaults left out). */
export function inboxHref(state: InboxParams): string {
  const params = new URLSearchParams();
  if (state.show !== "all") params.set("show", state.show);
  if (state.page > 1) params.set("page", String(state.page));
  const query = params.toString();
  return query ? `/inbox?${query}` : "/inbox";
}
