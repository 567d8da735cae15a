import type { CoverageCell, CoverageWebhook } from "@/lib/coverage/compute";

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
