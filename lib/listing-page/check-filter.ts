import "server-only";
import type { Actor } from "@/lib/access/actor";
import type { EmsClient } from "@/lib/ems";
import type { LoadOptions } from "@/lib/ems-access/shared-read";
import { loadCheckSubjects } from "@/lib/health/check-subjects";
import { withinIds } from "@/lib/listing/id-set-pages";
import { loadListingOfIds, loadListing, type ListingOutcome } from "@/lib/listing/load";
import type { ListingState } from "@/lib/listing/search-params";
import type { SetupUpdating } from "@/lib/setup/stored-results";

/** What a list filtered by a Health check (`check=`) says beside its rows. */
export interface CheckFilterFacts {
  /** How many records the check finds (within the list's `ids=`, if any): the chip's count. */
  total: number;
  /** A plan is being applied: the check's records as Health last worked them out. */
  updating: SetupUpdating | null;
}

/**
 * The rows of a listing page: with `check=`, one page of the check's records (their ids from
 * Health's stored result, never a whole-setup read of their own, paged here:
 * lib/listing/id-set-pages.ts); else the list as the EMS pages it.
 */
export async function loadListingRows(
  actor: Actor,
  state: ListingState,
  emsClient?: Promise<EmsClient | null>,
  options: LoadOptions = {},
): Promise<{ outcome: ListingOutcome<Record<string, unknown>>; check: CheckFilterFacts | null }> {
  if (!state.check) return { outcome: await loadListing(actor, state, emsClient, options), check: null };
  const subjects = await loadCheckSubjects(actor, state.check);
  if (subjects.kind !== "ok") return { outcome: subjects, check: null };
  const ids = withinIds(subjects.ids, state.ids);
  const outcome = await loadListingOfIds(actor, state, ids, emsClient);
  return { outcome, check: { total: ids.length, updating: subjects.updating } };
}
