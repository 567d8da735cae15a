import "server-only";
import type { Actor } from "@/lib/access/actor";
import { loadHealthView, type HealthViewOutcome } from "@/lib/health/view";
import type { FindingCounts, WebhookRowContext } from "@/lib/listing/table-rows";

/** Unmuted findings per webhook id: each finding counted once per webhook it names. */
export function findingsByWebhook(
  findings: readonly { severity: "error" | "warning" | "notice"; subjects: readonly { kind: string; id: number }[] }[],
): Map<number, FindingCounts> {
  const byWebhook = new Map<number, FindingCounts>();
  for (const finding of findings) {
    const ids = new Set(finding.subjects.filter((subject) => subject.kind === "webhook").map((subject) => subject.id));
    for (const id of ids) {
      const counts = byWebhook.get(id) ?? { errors: 0, warnings: 0, notices: 0 };
      if (finding.severity === "error") counts.errors++;
      else if (finding.severity === "warning") counts.warnings++;
      else counts.notices++;
      byWebhook.set(id, counts);
    }
  }
  return byWebhook;
}

/**
 * What the webhooks list shows beside each webhook: its group's name and its health findings, from
 * what the Health page shows (lib/health/view.ts: stored per setup, so a list view neither reads
 * nor keeps the account's whole setup while it is unchanged). A failure costs the names and
 * findings, not the rows.
 */
export async function webhookRowContext(actor: Actor, report: Promise<HealthViewOutcome> = loadHealthView(actor)): Promise<WebhookRowContext> {
  const outcome = await report;
  if (outcome.kind !== "ok") return { groupNames: null, findings: null };
  return { groupNames: outcome.groupNames, findings: findingsByWebhook(outcome.active) };
}
