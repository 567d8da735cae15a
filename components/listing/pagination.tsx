import { formatCount } from "@/lib/listing/format";
import { hrefOf } from "@/lib/listing/href";
import type { ListingMeta } from "@/lib/listing/load";
import { listingConfig } from "@/lib/listing/resources";
import type { ListingState } from "@/lib/listing/search-params";
import { ListingLink } from "./toolbar/listing-navigation";
import { PageControls } from "./toolbar/page-controls";

function PageLink({ href, label, disabled, testId }: { href: string; label: string; disabled: boolean; testId: string }) {
  const base = "rounded border px-2.5 py-1 text-sm";
  if (disabled) {
    return (
      <span className={`${base} border-slate-200 text-slate-500`} aria-disabled="true">
        {label}
      </span>
    );
  }
  // A client navigation (one RSC request, the shell kept), never prefetched: a listing page costs
  // an EMS call, which only a click should spend. Without JavaScript it is a plain link.
  return (
    <ListingLink href={href} className={`${base} border-slate-300 text-brand-700 hover:bg-slate-100`} data-testid={testId}>
      {label}
    </ListingLink>
  );
}

export function Pagination({ state, meta }: { state: ListingState; meta: ListingMeta }) {
  const config = listingConfig(state.resource);
  const current = meta.currentPage;
  const last = Math.max(1, meta.pageCount);
  const first = meta.totalCount === 0 ? 0 : (current - 1) * meta.perPage + 1;
  const end = Math.min(meta.totalCount, current * meta.perPage);
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center gap-2 py-3" data-testid="pagination">
      <p className="mr-auto text-sm text-slate-800" data-testid="listing-total">
        {meta.totalCount === 0
          ? `No ${config.title.toLowerCase()}`
          : `${formatCount(first)}–${formatCount(end)} of ${formatCount(meta.totalCount)} ${config.title.toLowerCase()}`}
        {` · page ${formatCount(current)} of ${formatCount(last)}`}
      </p>
      <PageLink href={hrefOf(state, { page: 1 })} label="First" disabled={current <= 1} testId="page-first" />
      <PageLink href={hrefOf(state, { page: current - 1 })} label="Previous" disabled={current <= 1} testId="page-previous" />
      <PageLink href={hrefOf(state, { page: current + 1 })} label="Next" disabled={current >= last} testId="page-next" />
      <PageLink href={hrefOf(state, { page: last })} label="Last" disabled={current >= last} testId="page-last" />
      <PageControls state={state} lastPage={last} />
    </nav>
  );
}
