/**
 * One filter row of the listing language, as kept in the URL: `filter=<field><operator><value>`,
 * written exactly like one API search condition (`name=*contains*summit`, `id>=100`), so a URL reads
 * like the request it makes. Which operators a field takes comes from the EMS client's constants.
 */
import type { FieldType } from "./resources";

export interface FilterCondition {
  field: string;
  operator: string;
  value: string;
}

/** Words for the operators; the operators themselves (and which type allows which) are lib/ems's. */
const OPERATOR_LABELS: Record<string, { text: string; date?: string }> = {
  "=": { text: "is", date: "is" },
  "!=": { text: "is not", date: "is not" },
  ">": { text: "greater than", date: "after" },
  ">=": { text: "at least", date: "on or after" },
  "<": { text: "less than", date: "before" },
  "<=": { text: "at most", date: "on or before" },
  "=*contains*": { text: "contains" },
  "!=*contains*": { text: "does not contain" },
  "=*beginswith*": { text: "begins with" },
  "!=*beginswith*": { text: "does not begin with" },
  "=*endswith*": { text: "ends with" },
  "!=*endswith*": { text: "does not end with" },
};

export function operatorLabel(operator: string, type: FieldType = "text"): string {
  const label = OPERATOR_LABELS[operator];
  if (!label) return operator;
  return (type === "date" ? label.date : undefined) ?? label.text;
}

export function formatFilter(condition: FilterCondition): string {
  return `${condition.field}${condition.operator}${condition.value}`;
}

export type FilterParse = { ok: true; condition: FilterCondition } | { ok: false; message: string };

/**
 * Reads `<field><operator><value>`. The longest operator wins, so `name=*contains*x` is "contains x",
 * never "equals *contains*x"; the type checks of the value are the caller's (they know the field).
 */
export function parseFilter(
  text: string,
  searchable: Readonly<Record<string, FieldType>>,
  operatorsByType: Readonly<Record<FieldType, readonly string[]>>,
): FilterParse {
  const match = /^([a-z_]+)(.*)$/s.exec(text);
  if (!match) return { ok: false, message: `“${clip(text)}” is not a filter (expected a field name, an operator and a value).` };
  const [, field, rest] = match;
  const type = searchable[field];
  if (!type) {
    const known = Object.keys(searchable).join(", ");
    return { ok: false, message: `“${field}” cannot be filtered on; the fields you can filter on are ${known}.` };
  }
  const operators = [...operatorsByType[type]].sort((a, b) => b.length - a.length);
  const operator = operators.find((op) => rest.startsWith(op));
  if (!operator) {
    return { ok: false, message: `The filter on “${field}” has no operator that fits a ${type} field.` };
  }
  const value = rest.slice(operator.length);
  const problem = valueProblem(field, type, value, operator);
  if (problem) return { ok: false, message: problem };
  return { ok: true, condition: { field, operator, value } };
}

const DATE_PREFIX = /^\d{4}(-\d{2}(-\d{2}( \d{2}(:\d{2}(:\d{2})?)?)?)?)?$/;

/** What is wrong with a value for a field, in words; null when it is fine. */
export function valueProblem(field: string, type: FieldType, value: string, operator = "="): string | null {
  if (value.trim() === "") return `The filter on “${field}” has no value.`;
  if (value.includes("&")) return `The filter on “${field}” contains “&”, which the EMS API cannot search for; remove it or search for the part before or after it.`;
  if (/^\*[a-z]*\*/i.test(value)) return `The value of the filter on “${field}” starts with “${value.slice(0, value.indexOf("*", 1) + 1)}”, which looks like a mistyped operator.`;
  if (type === "number" && !/^-?\d+$/.test(value.trim())) return `The filter on “${field}” needs a whole number, not “${clip(value)}”.`;
  // Dates compare as text: a comparison needs the stated format; "contains" takes any part of it.
  if (type === "date" && !operator.includes("*") && !DATE_PREFIX.test(value.trim())) {
    return `The filter on “${field}” needs a date written YYYY-MM-DD (optionally with HH:MM:SS), not “${clip(value)}”.`;
  }
  if (value.length > 200) return `The filter on “${field}” is longer than 200 characters.`;
  return null;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
