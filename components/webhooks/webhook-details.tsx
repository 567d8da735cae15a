import Link from "next/link";
import { StatusBadge } from "@/components/listing/status-badge";
import { Suspense, type ReactNode } from "react";
import type { EventNames } from "@/lib/listing/group";
import type { WebhookForPage as Webhook } from "@/lib/listing/header-values";
import { HeaderList } from "./header-list";
import { WebhookFiringPill } from "./webhook-firing-pill";

/**
 * A group's webhooks, each with every field the API gives (docs/ems-api.md §4.1a) and the events it
 * fires for. A field the API did not send is "Unknown", never a guess. Cards rather than a table:
 * fifteen fields do not fit a phone's width, and each webhook is read on its own. Headers come by
 * name only (lib/listing/header-values.ts); `groupId` null: a past state, whose values are not kept.
 */
export function WebhookDetailsList({ groupId, webhooks, eventNames }: { groupId: number | null; webhooks: Webhook[]; eventNames: Promise<EventNames> | null }) {
  if (webhooks.length === 0) return <p className="text-sm text-slate-600">No webhooks in this group.</p>;
  return (
    <ul className="space-y-3" data-testid="webhook-details-list">
      {webhooks.map((webhook) => (
        <li key={webhook.id}>
          <WebhookCard groupId={groupId} webhook={webhook} eventNames={eventNames} />
        </li>
      ))}
    </ul>
  );
}

const ACTIONS = [
  ["trigger_on_insert", "insert"],
  ["trigger_on_update", "update"],
  ["trigger_on_delete", "delete"],
] as const;

const ACTORS = [
  ["public_user", "Public users"],
  ["admin_user", "Admin users"],
  ["api_call", "API calls"],
] as const;

const CONTENT_TYPES: Record<string, string> = { json: "JSON", post: "Form post (form-encoded)" };

function Unknown() {
  return <span className="text-slate-500">Unknown</span>;
}

/** The switches that are on, in words; "Unknown" when the API sent none of them. */
function switchesOn<K extends keyof Webhook>(webhook: Webhook, switches: readonly (readonly [K, string])[], none: string): ReactNode {
  if (switches.every(([key]) => webhook[key] === undefined)) return <Unknown />;
  const on = switches.filter(([key]) => webhook[key] === true).map(([, label]) => label);
  return on.length > 0 ? on.join(", ") : <span className="text-amber-800">{none}</span>;
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) and who, as the API states them. */
function stamp(at: string | null | undefined, by: string | null | undefined): ReactNode {
  if (at === undefined && by === undefined) return <Unknown />;
  if (!at && !by) return <span className="text-slate-500">Not recorded</span>;
  return (
    <>
      {at ? <time dateTime={`${at.replace(" ", "T")}Z`}>{at} UTC</time> : null}
      {by ? (
        <span className="break-words">
          {at ? " by " : "By "}
          {by}
        </span>
      ) : null}
    </>
  );
}

export function WebhookCard({
  groupId,
  webhook,
  eventNames,
  heading = true,
}: {
  groupId: number | null;
  webhook: Webhook;
  eventNames: Promise<EventNames> | null;
  /** False on the webhook's own page, whose title and status line say it already. */
  heading?: boolean;
}) {
  const url = webhook.url ?? "";
  const plainHttp = /^http:\/\//i.test(url);
  return (
    <article
      // The target of `#webhook-411` (the Changes feed links there): scrolled to below the bar, marked for a moment.
      id={`webhook-${webhook.id}`}
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="webhook-card"
      data-webhook-id={webhook.id}
      aria-labelledby={`webhook-${webhook.id}-name`}
    >
      <header className={heading ? "flex flex-wrap items-baseline gap-x-3 gap-y-1" : "sr-only"}>
        <h3 id={`webhook-${webhook.id}-name`} className="min-w-0 break-words font-semibold text-slate-900">
          <Link href={`/webhooks/${webhook.id}`} className="hover:underline" data-testid="webhook-page-link">
            {webhook.name || `Webhook ${webhook.id}`}
          </Link>
        </h3>
        {/* Never a green "Enabled" on a webhook that cannot fire. */}
        <WebhookFiringPill webhook={webhook} />
        <span className="text-xs text-slate-600">ID {webhook.id}</span>
        {/* The webhook's own timeline: the Changes feed narrowed to it (change history, when tracked). */}
        <Link href={`/changes?webhook=${webhook.id}`} className="ml-auto text-xs text-brand-700 underline" data-testid="webhook-history-link">
          History
        </Link>
      </header>
      <p className={heading ? "mt-1 flex flex-wrap items-baseline gap-2" : "-mt-2 flex flex-wrap items-baseline gap-2"}>
        {/* On the webhook's own page the URL is in its title block, with a copy button. */}
        {heading ? <code className="min-w-0 break-all font-mono text-xs text-slate-800">{url || "No URL"}</code> : null}
        {plainHttp ? (
          <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-900" title="Deliveries travel unencrypted">
            Not HTTPS
          </span>
        ) : null}
      </p>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr] [&>dd]:min-w-0 [&>dt]:font-semibold [&>dt]:text-slate-700">
        <dt>Fires on</dt>
        <dd data-testid="webhook-fires-on">
          {webhook.trigger_object ? <span className="font-mono text-xs">{webhook.trigger_object}</span> : <Unknown />}{" "}
          {switchesOn(webhook, ACTIONS, "no change (it never fires)")}
        </dd>
        <dt>Changes made by</dt>
        <dd>{switchesOn(webhook, ACTORS, "nobody (it never fires)")}</dd>
        <dt>Events</dt>
        <dd data-testid="webhook-events">
          <WebhookEvents webhook={webhook} eventNames={eventNames} />
        </dd>
        <dt>Content type</dt>
        <dd>{webhook.content_type === undefined ? <Unknown /> : (CONTENT_TYPES[webhook.content_type] ?? webhook.content_type)}</dd>
        <dt>Fields sent</dt>
        <dd>
          <FieldsSent webhook={webhook} />
        </dd>
        <dt>Post field data</dt>
        <dd>
          {webhook.post_field_data === undefined ? (
            <Unknown />
          ) : webhook.post_field_data.length > 0 ? (
            <span className="break-words font-mono text-xs">{webhook.post_field_data.join(", ")}</span>
          ) : (
            <span className="text-slate-500">None</span>
          )}
        </dd>
        <dt>Custom fields</dt>
        <dd data-testid="webhook-custom-fields">
          {webhook.custom_fields === undefined ? (
            <Unknown />
          ) : webhook.custom_fields.length > 0 ? (
            <ul className="space-y-0.5 font-mono text-xs">
              {webhook.custom_fields.map((field, index) => (
                <li key={`${field.key}-${index}`} className="break-words">
                  {field.key} = {field.type ? `${field.type}.` : ""}
                  {field.value}
                </li>
              ))}
            </ul>
          ) : (
            <span className="text-slate-500">None</span>
          )}
        </dd>
        <dt>Headers</dt>
        <dd>
          {webhook.headers === undefined ? <Unknown /> : <HeaderList headers={webhook.headers} place={groupId === null ? null : { groupId, webhookId: webhook.id }} />}
        </dd>
        <dt>Notes</dt>
        <dd className="whitespace-pre-line break-words">{webhook.notes === undefined ? <Unknown /> : webhook.notes || <span className="text-slate-500">None</span>}</dd>
        <dt>Created</dt>
        <dd>{stamp(webhook.created_at, webhook.created_by)}</dd>
        <dt>Last changed</dt>
        <dd>{stamp(webhook.updated_at, webhook.updated_by)}</dd>
      </dl>
    </article>
  );
}

function FieldsSent({ webhook }: { webhook: Webhook }) {
  if (webhook.all_fields) return <>All fields</>;
  if (webhook.use_default_fields) return <>The default fields</>;
  if (webhook.fields && webhook.fields.length > 0) return <span className="break-words font-mono text-xs">{webhook.fields.join(", ")}</span>;
  if (webhook.all_fields === undefined && webhook.use_default_fields === undefined && webhook.fields === undefined) return <Unknown />;
  return <span className="text-amber-800">None chosen</span>;
}

/** "Every event", or the events by name (each a link to the events listing narrowed to it). */
function WebhookEvents({ webhook, eventNames }: { webhook: Webhook; eventNames: Promise<EventNames> | null }) {
  if (webhook.any_event) return <>Every event</>;
  const ids = webhook.event_ids;
  if (ids === undefined) return <Unknown />;
  if (ids.length === 0) return <span className="text-amber-800">No events (it never fires)</span>;
  return (
    <Suspense fallback={<EventLinks ids={ids} names={null} />}>
      <NamedEventLinks ids={ids} eventNames={eventNames} />
    </Suspense>
  );
}

async function NamedEventLinks({ ids, eventNames }: { ids: number[]; eventNames: Promise<EventNames> | null }) {
  const found = eventNames ? await eventNames : null;
  if (!found || found.outcome.kind !== "ok") return <EventLinks ids={ids} names={null} />;
  return <EventLinks ids={ids} names={new Map(found.outcome.items.map((event) => [event.id, event]))} asked={found.asked} />;
}

function EventLinks({ ids, names, asked }: { ids: number[]; names: Map<number, { name?: string; status?: string }> | null; asked?: ReadonlySet<number> }) {
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-1">
      {ids.map((id) => {
        const event = names?.get(id);
        return (
          <li key={id} className="min-w-0">
            <Link href={`/events?ids=${id}`} className="break-words text-brand-700 underline" data-testid="webhook-event-link">
              {event?.name || `Event ${id}`}
            </Link>
            {event?.status ? (
              <span className="ml-1.5">
                <StatusBadge status={event.status} testId="webhook-event-status" />
              </span>
            ) : null}
            {names && !event && asked?.has(id) ? <span className="ml-1 text-xs text-slate-600">(not in this account)</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
