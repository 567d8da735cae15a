import { csvLine } from "@/lib/csv";
import { ruleById } from "./rules";
import type { SplitFindings } from "./mutes";

export const FINDINGS_CSV_COLUMNS = ["severity", "check", "rule_id", "finding", "groups", "webhooks", "events", "muted", "mute_reason", "how_to_fix"] as const;

/**
 * The health findings as CSV, the muted ones too (marked, with their reason), so that a team can
 * file them elsewhere. Only what the page shows: ids, names, URLs and messages, never a header value.
 */
export function findingsCsv(split: SplitFindings): string {
  const ids = (finding: SplitFindings["active"][number], kind: "group" | "webhook" | "event") =>
    finding.subjects
      .filter((subject) => subject.kind === kind)
      .map((subject) => subject.id)
      .join(" ");
  const row = (finding: SplitFindings["active"][number], reason: string | null) => {
    const rule = ruleById(finding.ruleId);
    return csvLine([
      finding.severity,
      rule?.title ?? finding.ruleId,
      finding.ruleId,
      finding.message,
      ids(finding, "group"),
      ids(finding, "webhook"),
      ids(finding, "event"),
      reason === null ? "no" : "yes",
      reason ?? "",
      rule?.fix ?? "",
    ]);
  };
  return [csvLine(FINDINGS_CSV_COLUMNS), ...split.active.map((finding) => row(finding, null)), ...split.muted.map(({ finding, mute }) => row(finding, mute.reason))].join(
    "",
  );
}
