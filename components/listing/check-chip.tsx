import Link from "next/link";
import { Stethoscope, X } from "lucide-react";
import { formatCount } from "@/lib/listing/format";
import { hrefWith } from "@/lib/listing/href";
import type { ListingState } from "@/lib/listing/search-params";
import { CHECKS } from "@/lib/setup/checks";

/**
 * `check=` as a chip beside the filters: the Health check's title and how many records it finds
 * (once the rows came; `total` undefined before), × removes it (a link: it works without JavaScript
 * and from the keyboard). The check's title links back to its findings on Health.
 */
export function CheckChip({ state, total }: { state: ListingState; total?: number }) {
  if (!state.check) return null;
  const { title } = CHECKS[state.check];
  return (
    <span className="inline-flex max-w-full items-center rounded-2xl border border-amber-200 bg-amber-50 text-sm text-slate-800" data-testid="check-chip">
      <Link
        href={`/health?rule=${state.check}`}
        prefetch={false}
        className="inline-flex min-w-0 items-center gap-1 rounded-l-2xl py-1 pl-2.5 pr-1 hover:bg-amber-100"
        title="This check's findings on Health"
      >
        <Stethoscope aria-hidden className="size-3.5 shrink-0 text-amber-700" />
        <span className="min-w-0 [overflow-wrap:anywhere]">
          <span className="text-slate-600">Check</span> <strong className="font-medium">{title}</strong>
          {total !== undefined ? (
            <>
              {" "}
              · <span data-testid="check-chip-count">{formatCount(total)}</span>
            </>
          ) : null}
        </span>
      </Link>
      <Link
        href={hrefWith(state, { check: null })}
        prefetch={false}
        className="self-stretch rounded-r-2xl py-1 pl-1 pr-2 text-slate-600 hover:bg-amber-100 hover:text-slate-900"
        aria-label={`Remove filter: Health check ${title}`}
        data-testid="remove-check"
      >
        <X aria-hidden className="size-3.5" />
      </Link>
    </span>
  );
}
