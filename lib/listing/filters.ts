/**
 * One filter row of the listing language, as kept in the URL: `filter=<field><operator><value>`,
 * written exactly like one API search condition (`name=*contains*summit`, `id>=100`), so a URL reads
 * like the request it makes. Which operators a field takes, and which values the API takes, are the
 * contract's (lib/ems/contract.ts): this file only puts them in words. Used by the filter builder in
 * the browser too.
 */
import { MAX_SEARCH_VALUE_LENGTH, dateFormatOf, formatCondition, searchValueProblems, type FieldType, type SearchValueProblem } from "@/lib/ems/contract";

export interface FilterCondition {
  field: string;
  operator: string;
  value: string;
}

/** Words for the operators; the operators themselves (and which type allows which) are the contract's. */
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
  "=*in*": { text: "is one of" },
  "!=*in*": { text: "is none of" },
};

export function operatorLabel(operator: string, type: FieldType = "text"): string {
  if (!Object.hasOwn(OPERATOR_LABELS, operator)) return operator;
  const label = OPERATOR_LABELS[operator];
  return (type === "date" ? label.date : undefined) ?? label.text;
}

/** A filter is written as the API writes a condition. */
export const formatFilter: (condition: FilterCondition) => string = formatCondition;

export type FilterParse = { ok: true; condition: FilterCondition } | { ok: false; message: string };

/**
 * Reads `<field><operator><value>`. The longest operator wins, so `name=*contains*x` is "contains x",
 * never "equals *contains*x"; the value is then checked by the contract's rule (valueProblem).
 */
export function parseFilter(text: string, searchable: Readonly<Record<string, FieldType>>, operatorsByType: Readonly<Record<FieldType, readonly string[]>>): FilterParse {
  const match = /^([a-z_]+)(.*)$/s.exec(text);
  if (!match) return { ok: false, message: `“${clip(text)}” is not a filter (expected a field name, an operator and a value).` };
  const [, field, rest] = match;
  // Own properties only: `__proto__` and `constructor` are names too, of what every object inherits.
  const type = Object.hasOwn(searchable, field) ? searchable[field] : undefined;
  if (!type || !Object.hasOwn(operatorsByType, type)) {
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

/**
 * What is wrong with a value for a field, in words; null when it is fine. The rule is the
 * contract's `searchValueProblems`, the same one the EMS client enforces before sending.
 */
export function valueProblem(field: string, type: FieldType, value: string, operator = "="): string | null {
  const [problem] = searchValueProblems(field, type, operator, value);
  return problem ? problemInWords(field, value, problem) : null;
}

function problemInWords(field: string, value: string, problem: SearchValueProblem): string {
  switch (problem.kind) {
    case "empty":
      return `The filter on “${field}” has no value.`;
    case "ampersand":
      return `The filter on “${field}” contains “&”, which the EMS API cannot search for; remove it or search for the part before or after it.`;
    case "too-long":
      return `The filter on “${field}” is longer than ${MAX_SEARCH_VALUE_LENGTH} characters.`;
    case "control-character":
      return `The filter on “${field}” contains a control character.`;
    case "looks-like-operator":
      return `The value of the filter on “${field}” starts with “${problem.prefix}”, which looks like a mistyped operator.`;
    case "not-a-number":
      return `The filter on “${field}” needs a whole number, not “${clip(value)}” (for “is one of”, whole numbers separated by “|”).`;
    case "not-a-boolean":
      return `The filter on “${field}” needs 1 (yes) or 0 (no), not “${clip(value)}”.`;
    case "empty-list-entry":
      return `The filter on “${field}” has an empty value in its list; separate the values with a single “|”, with none at the end.`;
    case "not-a-date":
      return `The filter on “${field}” needs a date written ${dateFormatOf(problem)}, not “${clip(value)}” (use “begins with” for a part of a date).`;
  }
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
