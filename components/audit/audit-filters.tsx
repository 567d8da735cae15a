"use client";

import { useEffect, useRef, useTransition } from "react";
import { useHydrated } from "@/components/ui/use-hydrated";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Filter, LoaderCircle, X } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";

export interface PersonOption {
  id: string;
  label: string;
}

export interface ActionGroupOption {
  key: string;
  label: string;
  actions: { value: string; label: string }[];
}

interface Props {
  members: PersonOption[];
  formerMembers: PersonOption[];
  actionGroups: ActionGroupOption[];
  values: { person: string; action: string; from: string; to: string };
  filtered: boolean;
}

const controlClasses =
  "mt-1 block w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

/** The form's filled fields as the page's query (page 1: a new filter starts from the top). */
function queryOf(form: HTMLFormElement): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === "string" && value !== "") params.set(name, value);
  const query = params.toString();
  return query ? `/audit?${query}` : "/audit";
}

/**
 * The audit log's filters: a GET form that works without JavaScript (its Apply button), and with
 * JavaScript each change is one client navigation to the new address, the rows shown until the
 * new ones arrive.
 */
export function AuditFilters({ members, formerMembers, actionGroups, values, filtered }: Props) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [pending, startTransition] = useTransition();
  // False in the server's HTML (the Apply button is there for a browser without JavaScript), true once hydrated.
  const hydrated = useHydrated();
  // The fields are uncontrolled (a plain GET form); after a navigation that did not come from them
  // (Clear filters, Back), they take the address's values without being remounted (focus stays).
  // Keyed by the values, not the object: a re-render while a navigation is pending keeps the new choice.
  const { person, action, from, to } = values;
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const wanted = { person, action, from, to };
    for (const name of ["person", "action", "from", "to"] as const) {
      const field = form.elements.namedItem(name);
      if (field instanceof HTMLSelectElement || field instanceof HTMLInputElement) field.value = wanted[name];
    }
  }, [person, action, from, to]);

  const apply = () => {
    const form = formRef.current;
    if (!form) return;
    const href = queryOf(form);
    startTransition(() => router.push(href, { scroll: false }));
  };

  /**
   * A date applies once it is a whole date (a year typed digit by digit is not); a start after the
   * end moves the end along with it, and an end before the start the start, as range pickers do.
   */
  const changeDate = (input: HTMLInputElement, other: "from" | "to") => {
    if (input.value !== "" && !input.validity.valid) return;
    const otherInput = input.form?.elements.namedItem(other);
    if (input.value && otherInput instanceof HTMLInputElement && otherInput.value) {
      const crossed = other === "to" ? input.value > otherInput.value : input.value < otherInput.value;
      if (crossed) otherInput.value = input.value;
    }
    apply();
  };

  return (
    <form
      ref={formRef}
      method="get"
      action="/audit"
      role="search"
      aria-label="Filter the audit log"
      data-testid="audit-filters"
      // Two columns even on a phone: the four filters take a third of its first screen, not all of it.
      className="relative grid grid-cols-2 gap-3 rounded-xl border border-slate-200 bg-white p-3 sm:p-4 lg:grid-cols-[minmax(0,1.3fr)_minmax(0,1.3fr)_minmax(0,1fr)_minmax(0,1fr)]"
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
    >
      <div className="min-w-0">
        <label htmlFor="audit-person" className="block text-sm font-medium text-slate-700">
          Person
        </label>
        <select id="audit-person" name="person" defaultValue={values.person} onChange={apply} className={controlClasses} aria-describedby="audit-person-hint">
          <option value="">Everyone</option>
          <optgroup label="Members">
            {members.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </optgroup>
          {formerMembers.length > 0 ? (
            <optgroup label="No longer in the team">
              {formerMembers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
        <p id="audit-person-hint" className="mt-1 hidden text-xs text-slate-500 sm:block">
          What they did, and what was done to them.
        </p>
      </div>
      <div className="min-w-0">
        <label htmlFor="audit-action" className="block text-sm font-medium text-slate-700">
          Action
        </label>
        <select id="audit-action" name="action" defaultValue={values.action} onChange={apply} className={controlClasses}>
          <option value="">Any action</option>
          {actionGroups.map((group) => (
            <optgroup key={group.key} label={group.label}>
              <option value={group.key}>All: {group.label.toLowerCase()}</option>
              {group.actions.map((a) => (
                <option key={a.value} value={a.value}>
                  {a.label}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      <div className="min-w-0">
        <label htmlFor="audit-from" className="block text-sm font-medium text-slate-700">
          From (UTC)
        </label>
        <input
          id="audit-from"
          type="date"
          name="from"
          defaultValue={values.from}
          min="2000-01-01"
          max="9999-12-30"
          onChange={(e) => changeDate(e.currentTarget, "to")}
          className={controlClasses}
        />
      </div>
      <div className="min-w-0">
        <label htmlFor="audit-to" className="block text-sm font-medium text-slate-700">
          To (UTC, included)
        </label>
        <input
          id="audit-to"
          type="date"
          name="to"
          defaultValue={values.to}
          min="2000-01-01"
          max="9999-12-30"
          onChange={(e) => changeDate(e.currentTarget, "from")}
          className={controlClasses}
        />
      </div>
      {!hydrated || filtered ? (
        <div className="col-span-2 flex flex-wrap items-center justify-end gap-2 lg:col-span-4">
          {/* Without JavaScript the form is sent as it is; with it, every change applies at once. */}
          {hydrated ? null : (
            <button type="submit" className={buttonClasses("secondary")}>
              <Filter aria-hidden className="size-4" />
              Apply
            </button>
          )}
          {filtered ? (
            <Link
              href="/audit"
              prefetch={false}
              className="inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-sm text-brand-700 hover:bg-slate-100"
              data-testid="audit-clear-filters"
            >
              <X aria-hidden className="size-4" />
              Clear filters
            </Link>
          ) : null}
        </div>
      ) : null}
      <span role="status" aria-live="polite" className="absolute right-3 top-2 inline-flex items-center gap-1 text-xs text-slate-500" data-testid="audit-pending">
        {pending ? (
          <>
            <LoaderCircle aria-hidden className="size-3.5 animate-spin" />
            Updating…
          </>
        ) : null}
      </span>
    </form>
  );
}
