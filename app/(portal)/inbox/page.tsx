import type { Metadata } from "next";
import Link from "next/link";
import { MarkAllReadButton, MarkReadButton } from "@/components/inbox/inbox-buttons";
import { PageLinks } from "@/components/ui/page-links";
import { Time } from "@/components/ui/time";
import { requireActor } from "@/lib/auth/session";
import { listInbox } from "@/lib/inbox/list";
import { inboxHref, parseInboxParams } from "@/lib/inbox/params";
import { plural } from "@/lib/text/plural";

export const metadata: Metadata = { title: "Inbox" };

const SHOW: { value: "all" | "unread"; label: string }[] = [
  { value: "all", label: "All" },
  { value: "unread", label: "Unread" },
];

/**
 * What waits for this person (issue 37 §4): their plans' outcomes, plans and drafted fixes waiting
 * for their review, drift on what they applied. Newest first, 25 a page, all state in the URL.
 */
export default async function InboxPage(props: PageProps<"/inbox">) {
  const actor = await requireActor();
  const params = parseInboxParams(await props.searchParams);
  const { items, total, unread, page, pageCount } = await listInbox(actor, params);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold">Inbox</h1>
          <p className="mt-1 text-sm text-slate-600" data-testid="inbox-summary">
            {unread === 0 ? "Nothing unread." : `${plural(unread, "unread item")}.`} Your plans&apos; outcomes and what waits for your review.{" "}
            <Link href="/inbox/preferences" className="text-brand-700 underline">
              Email and Slack
            </Link>
          </p>
        </div>
        {unread > 0 ? <MarkAllReadButton /> : null}
      </div>
      <nav aria-label="Which items" className="flex max-w-full gap-1 overflow-x-auto">
        {SHOW.map((option) => (
          <Link
            key={option.value}
            href={inboxHref({ show: option.value, page: 1 })}
            aria-current={option.value === params.show ? "page" : undefined}
            className={`rounded-full px-3 py-1 text-sm whitespace-nowrap ${option.value === params.show ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}
          >
            {option.label}
          </Link>
        ))}
      </nav>
      {items.length === 0 ? (
        <div className="rounded-md border border-slate-200 bg-white p-6 text-center" data-testid="inbox-empty">
          <h2 className="text-base font-semibold">{params.show === "unread" ? "Nothing unread" : "Your inbox is empty"}</h2>
          <p className="mt-1 text-sm text-slate-600">
            When a plan of yours is approved, rejected or applied, or a plan waits for your review, it shows here.{" "}
            <Link href="/plans" className="text-brand-700 underline">
              See the plans
            </Link>
          </p>
        </div>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-testid="inbox-list">
          {items.map((item) => (
            <li
              key={item.id}
              className={`flex flex-wrap items-start gap-x-3 gap-y-2 px-4 py-3 ${item.read ? "" : "bg-amber-50/40"}`}
              data-testid="inbox-item"
              data-read={item.read}
            >
              <span aria-hidden className={`mt-1.5 size-2 shrink-0 rounded-full ${item.read ? "bg-transparent" : "bg-brand-600"}`} />
              <div className="min-w-0 flex-1 basis-[calc(100%-1.25rem)] sm:basis-48">
                <p className="text-sm break-words text-slate-900 [overflow-wrap:anywhere]">
                  {item.read ? null : <span className="sr-only">Unread: </span>}
                  {item.planId ? (
                    <Link href={`/plans/${item.planId}`} className="hover:underline" data-testid="inbox-item-link">
                      {item.sentence}
                    </Link>
                  ) : (
                    item.sentence
                  )}
                </p>
                {item.detail ? <p className="mt-0.5 text-sm break-words text-slate-600 [overflow-wrap:anywhere]">{item.detail}</p> : null}
                <p className="mt-0.5 text-xs text-slate-500">
                  <span className="font-medium text-slate-600" data-testid="inbox-item-kind">
                    {item.label}
                  </span>{" "}
                  · <Time value={item.createdAt} />
                </p>
              </div>
              {item.read ? null : (
                <div className="ml-5 sm:ml-0">
                  <MarkReadButton itemId={item.id} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <PageLinks page={page} pageCount={pageCount} counted={plural(total, "item")} hrefFor={(to) => inboxHref({ show: params.show, page: to })} />
    </div>
  );
}
