"use client";

import { useId, useState } from "react";
import { SET_SEPARATOR } from "@/lib/ems/contract";
import { valueProblem, type FilterCondition } from "@/lib/listing/filters";
import { operatorsFor, takesList, type FilterFieldSpec } from "@/lib/listing/filter-fields";
import { buttonClasses } from "@/components/ui/button";

const control =
  "w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-invalid:border-red-600";

/**
 * One condition, typed by its field: a select (or ticks, for "is one of") for a status, a date
 * picker for dates, a number for ids, text for names. Applies on Enter or the button; the value is
 * checked by the same rule the server and the EMS client use, so what is applied is never refused.
 */
export function FilterEditor({
  fields,
  initial,
  submitLabel,
  onApply,
  onRemove,
}: {
  fields: FilterFieldSpec[];
  initial: FilterCondition;
  submitLabel: string;
  onApply: (condition: FilterCondition) => void;
  onRemove?: () => void;
}) {
  const id = useId();
  const [condition, setCondition] = useState(initial);
  const [tried, setTried] = useState(false);
  const spec = fields.find((f) => f.name === condition.field) ?? fields[0];
  const operators = operatorsFor(spec, condition.operator);
  const list = takesList(condition.operator);
  const problem = valueProblem(spec.name, spec.type, condition.value, condition.operator);

  function changeField(name: string) {
    const next = fields.find((f) => f.name === name) ?? fields[0];
    // A value typed for a name means nothing for a date: start the value again.
    setCondition({ field: next.name, operator: next.operators[0].value, value: "" });
    setTried(false);
  }

  function changeOperator(operator: string) {
    // Between one value and a list, the first value is kept.
    const value = takesList(operator) === list ? condition.value : condition.value.split(SET_SEPARATOR)[0];
    setCondition({ ...condition, operator, value });
  }

  const showProblem = tried && problem !== null;
  const valueId = `${id}-value`;
  const describedBy = showProblem ? `${id}-problem` : undefined;

  return (
    <form
      className="w-72 max-w-[calc(100vw-2rem)] space-y-3"
      aria-label="Filter"
      data-testid="filter-editor"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        // Applied as typed: a space inside a name can matter, and the server reads it the same way.
        if (problem === null) onApply(condition);
      }}
    >
      <div className="grid grid-cols-2 gap-2">
        <div>
          <label htmlFor={`${id}-field`} className="text-xs font-medium text-slate-700">
            Field
          </label>
          <select id={`${id}-field`} value={spec.name} onChange={(e) => changeField(e.target.value)} className={control}>
            {fields.map((f) => (
              <option key={f.name} value={f.name}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-operator`} className="text-xs font-medium text-slate-700">
            Condition
          </label>
          <select id={`${id}-operator`} value={condition.operator} onChange={(e) => changeOperator(e.target.value)} className={control}>
            {operators.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div>
        {spec.input === "choice" && list ? (
          <fieldset aria-describedby={describedBy}>
            <legend className="text-xs font-medium text-slate-700">Values</legend>
            <div className="mt-1 grid grid-cols-2 gap-1">
              {spec.choices!.map((choice) => {
                const chosen = condition.value.split(SET_SEPARATOR).filter(Boolean);
                return (
                  <label key={choice} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={chosen.includes(choice)}
                      onChange={(e) => {
                        const next = e.target.checked ? [...chosen, choice] : chosen.filter((c) => c !== choice);
                        setCondition({ ...condition, value: spec.choices!.filter((c) => next.includes(c)).join(SET_SEPARATOR) });
                      }}
                    />
                    {choice}
                  </label>
                );
              })}
            </div>
          </fieldset>
        ) : (
          <>
            <label htmlFor={valueId} className="text-xs font-medium text-slate-700">
              Value
            </label>
            {spec.input === "choice" ? (
              <select
                id={valueId}
                value={condition.value}
                onChange={(e) => setCondition({ ...condition, value: e.target.value })}
                className={control}
                aria-describedby={describedBy}
                aria-invalid={showProblem || undefined}
              >
                <option value="" disabled>
                  Choose…
                </option>
                {spec.choices!.map((choice) => (
                  <option key={choice} value={choice}>
                    {choice}
                  </option>
                ))}
              </select>
            ) : spec.input === "boolean" ? (
              <select id={valueId} value={condition.value} onChange={(e) => setCondition({ ...condition, value: e.target.value })} className={control}>
                <option value="" disabled>
                  Choose…
                </option>
                <option value="1">Yes</option>
                <option value="0">No</option>
              </select>
            ) : (
              <input
                id={valueId}
                // A list of numbers ("12|15") is text; one number is a number; dates get the picker.
                type={spec.input === "date" ? "date" : spec.input === "number" && !list ? "number" : "text"}
                inputMode={spec.input === "number" ? "numeric" : undefined}
                min={spec.input === "number" && !list ? 1 : undefined}
                step={spec.input === "number" && !list ? 1 : undefined}
                value={spec.input === "date" ? condition.value.slice(0, 10) : condition.value}
                placeholder={list ? "one|two|three" : spec.input === "text" ? "Type a value" : undefined}
                autoFocus
                onChange={(e) => setCondition({ ...condition, value: e.target.value })}
                className={control}
                aria-invalid={showProblem || undefined}
                aria-describedby={describedBy}
              />
            )}
          </>
        )}
        {showProblem ? (
          <p id={`${id}-problem`} role="alert" className="mt-1 text-xs text-red-700">
            {problem}
          </p>
        ) : null}
      </div>
      <div className="flex items-center justify-between gap-2">
        {onRemove ? (
          <button type="button" onClick={onRemove} className={buttonClasses("ghost-danger", { size: "xs" })}>
            Remove filter
          </button>
        ) : (
          <span />
        )}
        <button type="submit" className={buttonClasses("primary", { size: "sm" })}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
