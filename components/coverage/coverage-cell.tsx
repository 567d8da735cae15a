import type { CoverageCell, CoverageWebhook } from "@/lib/coverage/compute";

/** How many webhooks a cell names before "+N more" (the event's page lists them all). */
const SHOWN = 2;

const STATE_STYLES: Record<CoverageCell["state"], string> = {
  ok: "bg-emerald-50",
  degraded: "bg-amber-50",
  none: "",
};

/** What is wrong with one webhook, in words (nothing when it delivers). */
export function webhookProblems(webhook: CoverageWebhook): string[] {
  const problems: string[] = [];
  if (webhook.enabled === false) problems.push("disabled");
  if (webhook.plainHttp) problems.push("plain HTTP");
  if (!webhook.canFire) problems.push("no actor");
  return problems;
}

/** "Finance ledger › CRM sync → hooks.example.com", with its problems marked. */
export function WebhookLine({ webhook, compact = false }: { webhook: CoverageWebhook; compact?: boolean }) {
  const problems = webhookProblems(webhook);
  const text = `${webhook.groupName || `Group ${webhook.groupId}`} › ${webhook.webhookName || `Webhook ${webhook.webhookId}`} → ${webhook.host ?? "no URL"}${problems.length ? ` (${problems.join(", ")})` : ""}`;
  return (
    <span className={`block min-w-0 ${compact ? "max-w-56 truncate" : "break-words"}`} title={compact ? text : undefined}>
      <span className="text-slate-600">{webhook.groupName || `Group ${webhook.groupId}`} › </span>
      <span className="text-slate-900">{webhook.webhookName || `Webhook ${webhook.webhookId}`}</span>
      <span className="text-slate-600"> → {webhook.host ?? "no URL"}</span>
      {problems.length > 0 ? <span className="ml-1 rounded bg-amber-200/70 px-1 text-amber-950">{problems.join(", ")}</span> : null}
    </span>
  );
}

export function cellWebhooks(cell: CoverageCell): CoverageWebhook[] {
  return [...cell.eventWebhooks, ...cell.anyEventWebhooks];
}

/** One event and trigger: which webhooks fire, marked when none of them delivers; "—" for none. */
export function CoverageCellView({ cell, required, moreHref }: { cell: CoverageCell; required: boolean; moreHref: string }) {
  const webhooks = cellWebhooks(cell);
  if (webhooks.length === 0) {
    return (
      <td className={`border-l border-slate-100 px-2 py-1.5 align-top text-xs ${required ? "bg-red-50 text-red-800" : "text-slate-400"}`} data-state="none">
        {required ? "Missing" : "—"}
      </td>
    );
  }
  return (
    <td className={`border-l border-slate-100 px-2 py-1.5 align-top text-xs ${STATE_STYLES[cell.state]}`} data-state={cell.state}>
      {cell.state === "degraded" ? <span className="mb-0.5 block font-medium text-amber-900">Nothing delivers</span> : null}
      {webhooks.slice(0, SHOWN).map((webhook) => (
        <WebhookLine key={webhook.webhookId} webhook={webhook} compact />
      ))}
      {webhooks.length > SHOWN ? (
        <a href={moreHref} className="text-brand-700 underline">
          +{webhooks.length - SHOWN} more
        </a>
      ) : null}
    </td>
  );
}
