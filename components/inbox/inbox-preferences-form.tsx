"use client";

import { saveInboxPreferencesAction } from "@/lib/actions/inbox/save-preferences";
import { buttonClasses } from "@/components/ui/button";
import { ActionForm } from "@/components/forms/action-form";

export interface PreferenceRow {
  kind: string;
  label: string;
  email: boolean;
  slack: boolean;
}

/** Per kind of inbox item: also by email, also in the team's Slack. The inbox always holds them all. */
export function InboxPreferencesForm({ rows }: { rows: PreferenceRow[] }) {
  return (
    <ActionForm action={saveInboxPreferencesAction} className="space-y-3" label="Where your inbox reaches you" testId="inbox-preferences">
      <table className="w-full text-sm">
        <thead>
          <tr className="text-left text-slate-600">
            <th scope="col" className="py-2 pr-3 font-medium">
              Kind
            </th>
            <th scope="col" className="w-16 px-2 py-2 text-center font-medium">
              Email
            </th>
            <th scope="col" className="w-16 px-2 py-2 text-center font-medium">
              Slack
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((row) => (
            <tr key={row.kind}>
              <th scope="row" className="py-2 pr-3 text-left font-normal break-words text-slate-800">
                {row.label}
              </th>
              <td className="px-2 py-2 text-center">
                <input
                  type="checkbox"
                  name={`email.${row.kind}`}
                  defaultChecked={row.email}
                  aria-label={`${row.label}: by email`}
                  className="size-4 rounded border-slate-300"
                />
              </td>
              <td className="px-2 py-2 text-center">
                <input
                  type="checkbox"
                  name={`slack.${row.kind}`}
                  defaultChecked={row.slack}
                  aria-label={`${row.label}: in the team's Slack`}
                  className="size-4 rounded border-slate-300"
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="submit" className={buttonClasses("primary", { size: "sm" })} data-testid="inbox-preferences-save">
        Save
      </button>
    </ActionForm>
  );
}
