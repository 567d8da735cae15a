import "server-only";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import type { Actor } from "@/lib/access/actor";
import { requireActor } from "@/lib/auth/session";
import { NotFoundError } from "@/lib/errors";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";

/** What Next.js hands a page of one record (`app/…/[id]/page.tsx`). */
export interface RecordPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<PageSearchParams>;
}

export interface RecordPageContext<Id> {
  actor: Actor;
  /** The record's id, parsed from the address. */
  id: Id;
  /** The page's search params through the one parser of a URL (lib/page-search-params.ts), repeated ones kept. */
  search: URLSearchParams;
}

/**
 * The page-side twin of `authedAction` and `authedRoute` for the page of one record (an event, a
 * plan, a webhook or a group, and their edit pages): the signed-in person (requireActor: signed out
 * goes to sign-in), the id parsed from the address by `parseId` (one that names no record: 404), the
 * search params through the one parser, and a NotFoundError from the page's data function (another
 * team's plan, a record gone) answered 404 like an address that never existed. The page itself only
 * loads and renders.
 *
 *   export default authedRecordPage(parsePlanId, async ({ actor, id, search }) => { … });
 */
export function authedRecordPage<Id>(parseId: (raw: string) => Id | null, render: (context: RecordPageContext<Id>) => Promise<ReactNode>) {
  return async function RecordPage(props: RecordPageProps): Promise<ReactNode> {
    const actor = await requireActor();
    const id = parseId((await props.params).id);
    if (id === null) notFound();
    const search = pageSearchParams(await props.searchParams);
    try {
      return await render({ actor, id, search });
    } catch (error) {
      if (error instanceof NotFoundError) notFound();
      throw error;
    }
  };
}
