"use client";

import { useState } from "react";

/**
 * A record's headers as the plan forms edit them: values are write-only, so each existing header is
 * kept, replaced (with a new value typed here) or removed, and new ones can be added. Nothing shows a
 * value the EMS holds. Inputs are named `header.<i>.key|action|value` and `newHeader.<i>.key|value`
 * (lib/actions/plans/plan-fields.validation.ts).
 */
export function HeaderEdits({ names, error }: { names: readonly string[]; error?: string }) {
  const [actions, setActions] = useState<string[]>(() => names.map(() => "keep"));
  const [added, setAdded] = useState(1);
  const inputClass = "block w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";
  return (
    <fieldset className="space-y-2" aria-describedby={error ? "headers-error" : undefined}>
      <legend className="text-sm font-medium text-slate-700">Headers</legend>
      <p className="text-xs text-slate-500">Header values are never shown. Keep a value, replace it with a new one, or remove the header.</p>
      {names.length === 0 ? <p className="text-sm text-slate-600">No headers yet.</p> : null}
      <ul className="space-y-2">
        {names.map((name, index) => (
          <li
            key={`${name}-${index}`}
            className="grid grid-cols-1 gap-2 rounded-md border border-slate-200 p-2 sm:grid-cols-[minmax(0,12rem)_9rem_minmax(0,1fr)] sm:items-center"
          >
            <input type="hidden" name={`header.${index}.key`} value={name} />
            <span className="truncate font-mono text-sm" title={name}>
              {name}
            </span>
            <label className="sr-only" htmlFor={`header-${index}-action`}>
              What to do with {name}
            </label>
            <select
              id={`header-${index}-action`}
              name={`header.${index}.action`}
              value={actions[index]}
              onChange={(event) => setActions((current) => current.map((value, i) => (i === index ? event.target.value : value)))}
              className={inputClass}
            >
              <option value="keep">Keep its value</option>
              <option value="replace">Replace the value</option>
              <option value="remove">Remove it</option>
            </select>
            {actions[index] === "replace" ? (
              <>
                <label className="sr-only" htmlFor={`header-${index}-value`}>
                  New value for {name}
                </label>
                <input
                  id={`header-${index}-value`}
                  name={`header.${index}.value`}
                  type="password"
                  autoComplete="off"
                  required
                  placeholder="New value"
                  className={inputClass}
                />
              </>
            ) : (
              <span className="text-sm text-slate-500">{actions[index] === "remove" ? "Removed by the plan" : "Value kept as it is"}</span>
            )}
          </li>
        ))}
      </ul>
      {Array.from({ length: added }, (_, index) => (
        <div key={`new-${index}`} className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          <div>
            <label className="text-xs text-slate-600" htmlFor={`new-header-${index}-key`}>
              New header name
            </label>
            <input id={`new-header-${index}-key`} name={`newHeader.${index}.key`} autoComplete="off" className={inputClass} placeholder="X-Api-Key" />
          </div>
          <div>
            <label className="text-xs text-slate-600" htmlFor={`new-header-${index}-value`}>
              Its value
            </label>
            <input id={`new-header-${index}-value`} name={`newHeader.${index}.value`} type="password" autoComplete="off" className={inputClass} />
          </div>
        </div>
      ))}
      {added < 5 ? (
        <button type="button" onClick={() => setAdded((count) => count + 1)} className="text-sm text-brand-700 underline">
          Add another header
        </button>
      ) : null}
      {error ? (
        <p id="headers-error" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
