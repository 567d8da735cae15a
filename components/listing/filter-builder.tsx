"use client";
import { useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { isSetOperator, type FieldType } from "@/lib/ems/contract";
import { valueProblem } from "@/lib/listing/filters";

const noSubscription = () => () => {};

export interface FilterFieldOption {
  name: string;
  label: string;
  type: FieldType;
}

export interface OperatorOption {
  value: string;
  label: string;
}

interface Row {
  key: number;
  field: string;
  operator: string;
  value: string;
}

interface Props {
  fields: FilterFieldOption[];
  operators: Record<FieldType, OperatorOption[]>;
  initial: { field: string; operator: string; value: string }[];
  initialMatch: "and" | "or";
}

/**
 * The filter rows of a listing form. Each complete row becomes one `filter` parameter of the
 * surrounding GET form (written the way the API writes a condition); the server re-validates all.
 * Native controls only, so everything works from the keyboard.
 */
export function FilterBuilder({ fields, operators, initial, initialMatch }: Props) {
  const id = useId();
  const nextKey = useRef(initial.length);
  const [rows, setRows] = useState<Row[]>(() => initial.map((f, key) => ({ key, ...f })));
  const [match, setMatch] = useState(initialMatch);
  const focusKey = useRef<number | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const valueInputs = useRef(new Map<number, HTMLInputElement>());
  const fieldSelects = useRef(new Map<number, HTMLSelectElement>());

  // Marks the island as interactive (tests wait for it; before hydration the buttons do nothing).
  const ready = useSyncExternalStore(noSubscription, () => true, () => false);

  const typeOf = (field: string): FieldType => fields.find((f) => f.name === field)?.type ?? "text";

  useEffect(() => {
    if (focusKey.current !== null) {
      fieldSelects.current.get(focusKey.current)?.focus();
      focusKey.current = null;
    }
    // Native validation blocks the form's submit while a row is wrong, with the same message.
    for (const row of rows) {
      const input = valueInputs.current.get(row.key);
      input?.setCustomValidity(valueProblem(row.field, typeOf(row.field), row.value, row.operator) ?? "");
    }
  });

  function update(key: number, patch: Partial<Row>) {
    setRows((current) =>
      current.map((row) => {
        if (row.key !== key) return row;
        const next = { ...row, ...patch };
        if (patch.field && patch.field !== row.field) {
          const allowed = operators[typeOf(patch.field)].map((o) => o.value);
          if (!allowed.includes(next.operator)) next.operator = allowed[0];
        }
        return next;
      }),
    );
  }

  function add() {
    const field = fields.find((f) => f.name === "name")?.name ?? fields[0].name;
    const key = nextKey.current++;
    focusKey.current = key;
    setRows((current) => [...current, { key, field, operator: operators[typeOf(field)][0].value, value: "" }]);
  }

  function remove(key: number) {
    setRows((current) => current.filter((row) => row.key !== key));
    addButton.current?.focus();
  }

  return (
    <fieldset className="space-y-2" data-testid="filter-builder" data-ready={ready ? "true" : undefined}>
      <legend className="text-sm font-semibold text-slate-900">Filters</legend>
      {rows.length === 0 ? <p className="text-sm text-slate-600">No filters: every record is listed.</p> : null}
      {rows.map((row, index) => {
        const type = typeOf(row.field);
        const problem = row.value === "" ? null : valueProblem(row.field, type, row.value, row.operator);
        const base = `${id}-filter-${row.key}`;
        return (
          <div key={row.key} role="group" aria-label={`Filter ${index + 1}`} className="flex flex-wrap items-end gap-2" data-testid="filter-row">
            <div className="flex flex-col">
              <label htmlFor={`${base}-field`} className="text-xs text-slate-700">
                Field
              </label>
              <select
                id={`${base}-field`}
                ref={(el) => {
                  if (el) fieldSelects.current.set(row.key, el);
                  else fieldSelects.current.delete(row.key);
                }}
                value={row.field}
                onChange={(e) => update(row.key, { field: e.target.value })}
                className="rounded border border-slate-300 px-2 py-1 text-sm"
              >
                {fields.map((f) => (
                  <option key={f.name} value={f.name}>
                    {f.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-col">
              <label htmlFor={`${base}-op`} className="text-xs text-slate-700">
                Operator
              </label>
              <select
                id={`${base}-op`}
                value={row.operator}
                onChange={(e) => update(row.key, { operator: e.target.value })}
                className="rounded border border-slate-300 px-2 py-1 text-sm"
              >
                {operators[type].map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-col">
              <label htmlFor={`${base}-value`} className="text-xs text-slate-700">
                Value
              </label>
              <input
                id={`${base}-value`}
                ref={(el) => {
                  if (el) valueInputs.current.set(row.key, el);
                  else valueInputs.current.delete(row.key);
                }}
                value={row.value}
                required
                inputMode={type === "number" && !isSetOperator(row.operator) ? "numeric" : undefined}
                placeholder={isSetOperator(row.operator) ? "one|two|three" : type === "date" ? "YYYY-MM-DD" : undefined}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${base}-problem` : undefined}
                onChange={(e) => update(row.key, { value: e.target.value })}
                className="rounded border border-slate-300 px-2 py-1 text-sm aria-invalid:border-red-600"
              />
            </div>
            <button
              type="button"
              onClick={() => remove(row.key)}
              className="rounded border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100"
              aria-label={`Remove filter ${index + 1}`}
            >
              Remove
            </button>
            {problem ? (
              <p id={`${base}-problem`} className="basis-full text-xs text-red-700">
                {problem}
              </p>
            ) : null}
            {!problem && row.value.trim() !== "" ? <input type="hidden" name="filter" value={`${row.field}${row.operator}${row.value}`} /> : null}
          </div>
        );
      })}
      <div className="flex flex-wrap items-center gap-4">
        <button
          ref={addButton}
          type="button"
          onClick={add}
          className="rounded border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100"
          data-testid="add-filter"
        >
          Add filter
        </button>
        {rows.length > 1 ? (
          <fieldset className="flex items-center gap-3 text-sm">
            <legend className="sr-only">How filters combine</legend>
            <label className="flex items-center gap-1">
              <input type="radio" name="searchCondition" value="and" checked={match === "and"} onChange={() => setMatch("and")} />
              Match all (AND)
            </label>
            <label className="flex items-center gap-1">
              <input type="radio" name="searchCondition" value="or" checked={match === "or"} onChange={() => setMatch("or")} />
              Match any (OR)
            </label>
          </fieldset>
        ) : null}
      </div>
    </fieldset>
  );
}
