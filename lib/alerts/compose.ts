/**
 * The text of an alert: its subject, its lines (written by the caller, e.g. lib/history after a sync:
 * names, ids, fields and masked values, never a header value) and the link to the page that shows
 * the rest. Pure functions: the same text goes to every destination of one alert.
 */

import { visibleText } from "@/lib/text/invisible-characters";

/** Lines an alert shows; the rest are counted ("… and 12 more"). */
export const MAX_ALERT_LINES = 50;
/** Longer lines (a long webhook name or URL) are cut. */
const MAX_LINE_LENGTH = 500;
const MAX_SUBJECT_LENGTH = 200;

/**
 * Control characters (a line break inside a line, a NUL) become spaces, and the invisible ones that
 * reorder or hide text go (lib/text/invisible-characters.ts; a name stored before EMS text was
 * cleaned may hold one): a line of the alert stays one line of the mail, as it reads.
 */
function oneLine(text: string, max: number): string {
  const flat = visibleText(text.replace(/\p{Cc}+/gu, " "))
    .replace(/ {2,}/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The subject as it is sent: one line, at most 200 characters. */
export function alertSubject(subject: string): string {
  return oneLine(subject, MAX_SUBJECT_LENGTH) || "EMS Portal alert";
}

/** Subject, a blank line, the lines (the first 50, then "… and N more"), a blank line, the link. */
export function alertBody(input: { subject: string; lines: readonly string[]; link: string }): string {
  const shown = input.lines.slice(0, MAX_ALERT_LINES).map((line) => oneLine(line, MAX_LINE_LENGTH));
  const more = input.lines.length - shown.length;
  if (more > 0) shown.push(`… and ${more} more`);
  return [alertSubject(input.subject), "", ...shown, "", input.link].join("\n");
}

/**
 * Slack's text escaping (`&`, `<`, `>`): a name from the EMS such as `<!channel>` or
 * `<https://evil.example|Open>` is shown as written, not turned into a mention or a disguised link.
 */
export function slackText(body: string): string {
  return body.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
