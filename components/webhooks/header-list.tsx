import type { HeaderName } from "@/lib/listing/header-values";
import { HeaderValueReveal } from "./header-value-reveal";

/** Where a list of headers lives on a group's page: the group's own (no webhook) or one webhook's. */
export interface HeaderListPlace {
  groupId: number;
  webhookId?: number;
}

/**
 * A list of headers by name. Their values never reach the page (they often hold API keys): each
 * has a "Reveal" button that asks for that one value. `place` null: a past state from change
 * history, which keeps no values at all.
 */
export function HeaderList({ headers, place }: { headers: HeaderName[] | undefined; place: HeaderListPlace | null }) {
  const list = headers ?? [];
  if (list.length === 0) return <span className="text-slate-500">None</span>;
  return (
    <ul
      className="space-y-1 [&>li]:flex [&>li]:min-w-0 [&>li]:flex-wrap [&>li]:items-baseline [&>li]:gap-x-2 [&>li]:gap-y-1 [&_b]:break-all [&_b]:font-mono [&_b]:text-xs"
      data-testid="header-list"
    >
      {list.map((header, index) => (
        <li key={`${header.key}-${index}`} data-testid="header">
          <b>{header.key}</b>
          {place ? <HeaderValueReveal {...place} index={index} name={header.key} /> : <span className="text-xs text-slate-500">value not shown</span>}
        </li>
      ))}
    </ul>
  );
}
