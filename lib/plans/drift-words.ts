import { fieldLabel } from "./diff";

/**
 * A drift finding in words (issue 37 §3), pure: "The URL that plan “Move CRM hooks” set on webhook
 * #411 “CRM hook” was changed in the EMS by jane@example.com". Names only: a header's value is never
 * part of it, and no value at all is (a URL may hold a token in its query). The time is the page's
 * to format in the viewer's zone.
 */

export interface DriftWordsInput {
  planTitle: string;
  kind: string;
  recordId: number;
  recordName: string | null;
  /** "" when the record was deleted. */
  field: string;
  changedBy: string | null;
}

/** "webhook #411 “CRM hook”", "group #12". */
export function driftRecordWords(kind: string, recordId: number, recordName: string | null): string {
  const noun = kind === "group" ? "group" : "webhook";
  return recordName ? `${noun} #${recordId} “${recordName}”` : `${noun} #${recordId}`;
}

/** Who made the change, as the EMS says: a person, the API (another client of the account), or nobody known. */
export function driftWho(changedBy: string | null): string {
  if (!changedBy) return "";
  if (changedBy.startsWith("API (")) return " through the API";
  return ` by ${changedBy}`;
}

/** "URL" stays "URL"; "Notification emails" becomes "notification emails". */
function inSentence(label: string): string {
  const first = label.split(" ")[0];
  return first === first.toUpperCase() ? label : label[0].toLowerCase() + label.slice(1);
}

export function driftSentence(finding: DriftWordsInput): string {
  const record = driftRecordWords(finding.kind, finding.recordId, finding.recordName);
  const plan = `plan “${finding.planTitle}”`;
  if (finding.field === "") return `${record[0].toUpperCase()}${record.slice(1)}, which ${plan} changed, was deleted in the EMS${driftWho(finding.changedBy)}.`;
  const label = inSentence(fieldLabel(finding.field));
  const verb = finding.field === "headers" || finding.field.endsWith("s") ? "were" : "was";
  return `The ${label} that ${plan} set on ${record} ${verb} changed in the EMS${driftWho(finding.changedBy)}.`;
}
