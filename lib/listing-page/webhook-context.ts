import "server-only";
import type { Actor } from "@/lib/access/actor";
import { loadHealthReport, type HealthOutcome } from "@/lib/health/report";
import type { FindingCounts, WebhookRowContext } from "@/lib/listing/table-rows";
import { labelOf } from "@/lib/setup/setup-data";

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
 * the health report (the account's setup, shared by the team for EMS_COVERAGE_CACHE_SECONDS, the
 * same read the Health and Coverage pages make). A failure costs the names and findings, not the rows.
 */
export async function webhookRowContext(actor: Actor, report: Promise<HealthOutcome> = loadHealthReport(actor)): Promise<WebhookRowContext> {
  const outcome = await report;
  if (outcome.kind !== "ok") return { groupNames: null, findings: null };
  return {
    groupNames: new Map(outcome.snapshot.data.groups.map((group) => [group.id, labelOf(group)])),
    findings: findingsByWebhook(outcome.active),
  };
}
