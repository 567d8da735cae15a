/**
 * What an HTTP header may hold (RFC 9110 §5.1, §5.5), for the headers a webhook or group sends with
 * every delivery: a value with a line break in it would add a header of its own to each delivery
 * (`k-1\r\nX-Injected: yes`) while a reviewer saw only "X-Api-Key (added)". One definition for the
 * forms, the edits a plan is made of and the checks before a write (lib/plans/edits.ts).
 * (lib/sandbox keeps its own copy, as the other side of the contract.)
 */

/** A name is a token: letters, digits and ! # $ % & ' * + - . ^ _ ` | ~, nothing else (no spaces, no colon). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A value is one line: no control character but the tab (CR, LF and NUL above all). */
const CONTROL_BUT_TAB = /[\u0000-\u0008\u000a-\u001f\u007f]/;

export const HEADER_NAME_MAX = 255;
export const HEADER_NAME_MESSAGE = `A header name is 1 to ${HEADER_NAME_MAX} letters, digits or ! # $ % & ' * + - . ^ _ \` | ~, with no spaces or colon.`;
export const HEADER_VALUE_LINE_MESSAGE = "A header value is one line, with no control characters (no line breaks).";

export function isHeaderName(name: string): boolean {
  return name.length >= 1 && name.length <= HEADER_NAME_MAX && TOKEN.test(name);
}

export function isHeaderValueLine(value: string): boolean {
  return !CONTROL_BUT_TAB.test(value);
}
