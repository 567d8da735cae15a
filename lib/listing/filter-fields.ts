/**
 * What the filter editor offers for each field of a listing: the kind of input (a select for a
 * status, a date picker for dates, a number for ids, text for names) and only the operators that
 * make sense for it ("greater than" is no question to ask of a status). The URL may still carry any
 * operator the contract allows for the field's type; the editor then shows it too.
 */
import { EVENT_STATUSES, TRIGGER_OBJECTS, isSetOperator, type FieldType } from "@/lib/ems/contract";
import { operatorLabel } from "./filters";
import { fieldLabel, listingConfig, type ListingResource } from "./resources";

export type FilterInput = "choice" | "date" | "number" | "text" | "boolean";

export interface FilterFieldSpec {
  name: string;
  label: string;
  type: FieldType;
  input: FilterInput;
  operators: { value: string; label: string }[];
  /** The values a choice field takes. */
  choices?: readonly string[];
}

const OPERATORS_BY_INPUT: Record<FilterInput, readonly string[]> = {
  choice: ["=", "!=", "=*in*", "!=*in*"],
  date: [">=", "<=", ">", "<", "="],
  number: ["=", "!=", ">", ">=", "<", "<=", "=*in*"],
  text: ["=*contains*", "!=*contains*", "=", "!=", "=*beginswith*", "=*endswith*"],
  boolean: ["=", "!="],
};

const CHOICES: Record<string, readonly string[]> = { status: EVENT_STATUSES, trigger_object: TRIGGER_OBJECTS, content_type: ["json", "post"] };

function inputOf(name: string, type: FieldType): FilterInput {
  if (Object.hasOwn(CHOICES, name)) return "choice";
  return type;
}

/** The fields a person can filter this listing on, in the order the editor lists them (name first). */
export function filterFieldsOf(resource: ListingResource): FilterFieldSpec[] {
  const config = listingConfig(resource);
  const names = Object.keys(config.searchable).sort((a, b) => (a === "name" ? -1 : b === "name" ? 1 : 0));
  return names.map((name) => {
    const type = config.searchable[name];
    const input = inputOf(name, type);
    return {
      name,
      label: fieldLabel(config, name),
      type,
      input,
      operators: OPERATORS_BY_INPUT[input].map((value) => ({ value, label: operatorLabel(value, type) })),
      choices: Object.hasOwn(CHOICES, name) ? CHOICES[name] : undefined,
    };
  });
}

/** The operators to offer for a field, keeping one already in use that the short list leaves out. */
export function operatorsFor(spec: FilterFieldSpec, current?: string): FilterFieldSpec["operators"] {
  if (!current || spec.operators.some((o) => o.value === current)) return spec.operators;
  return [...spec.operators, { value: current, label: operatorLabel(current, spec.type) }];
}

/** Whether a value is written as a list ("live|draft"): set operators. */
export const takesList = isSetOperator;
