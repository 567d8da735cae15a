import { z } from "zod";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";
import { hasInvisibleCharacters, INVISIBLE_CHARACTERS_MESSAGE } from "@/lib/text/invisible-characters";
import { MAX_VIEW_QUERY_LENGTH, MORE_VIEWS_SEARCH_MAX, VIEW_QUERY_TOO_LONG } from "./limits";

export const LISTING_PAGES = ["webhooks", "webhook-groups", "events"] as const;
export type ListingPage = (typeof LISTING_PAGES)[number];

export const viewPageSchema = z.enum(LISTING_PAGES, { error: "Unknown page." });

/** `/views/new?page=&query=`: the listing page a view is for (null: none given) and its options as they came. */
export function parseNewViewParams(input: URLSearchParams | PageSearchParams): { page: ListingPage | null; query: string } {
  const params = pageSearchParams(input);
  const page = viewPageSchema.safeParse(params.get("page"));
  return { page: page.success ? page.data : null, query: params.get("query") ?? "" };
}
export const viewIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "That is not a saved view." });
export const viewNameSchema = z
  .string({ error: "Give the view a name." })
  .transform((name) => name.replace(/\s+/g, " ").trim())
  .pipe(
    z
      .string()
      .min(1, { error: "Give the view a name." })
      .max(80, { error: "A view's name can be at most 80 characters." })
      // Shown to the whole team: a bidi override would make it read as another name.
      .refine((name) => !hasInvisibleCharacters(name), { error: `The name ${INVISIBLE_CHARACTERS_MESSAGE}` }),
  );
export const viewScopeSchema = z.enum(["PERSONAL", "TEAM"], { error: "Choose personal or team." });
/**
 * The listing options a view names: a URL search string, re-read by the page's own schema. The
 * toolbar sends it canonical already; the data functions check the canonical form's length again.
 */
export const viewQuerySchema = z.string().max(MAX_VIEW_QUERY_LENGTH, { error: VIEW_QUERY_TOO_LONG });

/** `GET /api/views/more?page=…&q=…&offset=…`: the "More" list of a listing page's views. */
export const moreViewsRequestSchema = z.object({
  page: viewPageSchema,
  q: z
    .string()
    .default("")
    .transform((text) => text.replace(/\s+/g, " ").trim())
    .pipe(z.string().max(MORE_VIEWS_SEARCH_MAX, { error: `Search with at most ${MORE_VIEWS_SEARCH_MAX} characters.` })),
  offset: z.coerce.number({ error: "That is not a position in the list." }).int().min(0).max(100_000).default(0),
});
