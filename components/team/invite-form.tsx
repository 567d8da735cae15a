"use client";

import { createInvitationAction } from "@/lib/actions/team/create-invitation";
import { ROLE_LABELS, type TeamRole } from "@/lib/access/roles";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";
import { CopyLink } from "./copy-link";
import { formatDateTime } from "@/lib/time/format";

export function InviteForm({ roles }: { roles: TeamRole[] }) {
  const { state, pending, formProps, fieldErrors } = useActionForm(createInvitationAction);
  const created = state.status === "success" ? state.data : undefined;
  const roleError = fieldErrors.role;

  return (
    <div className="space-y-4">
      <form {...formProps} noValidate className="grid max-w-2xl gap-4 sm:grid-cols-2" aria-label="Invite someone" data-testid="invite-form">
        <div>
          <label htmlFor="invite-role" className="block text-sm font-medium text-slate-700">
            Role
          </label>
          <select
            id="invite-role"
            name="role"
            defaultValue="MEMBER"
            aria-describedby={`invite-role-hint${roleError ? " invite-role-error" : ""}`}
            aria-invalid={roleError ? true : undefined}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
          >
            {roles.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
          <p id="invite-role-hint" className="mt-1 text-xs text-slate-500">
            Chosen now: the link gives exactly this role.
          </p>
          {roleError ? (
            <p id="invite-role-error" className="mt-1 text-sm text-red-700">
              {roleError}
            </p>
          ) : null}
        </div>
        <Field name="email" label="Email (optional)" type="email" autoComplete="off" error={fieldErrors.email} hint="If given, only this address can use the link." />
        <div className="sm:col-span-2">
          <Button type="submit" pending={pending}>
            Create invitation link
          </Button>
        </div>
      </form>
      <FormMessage state={state} testId="invite-form" />
      {created ? (
        <div className="max-w-2xl space-y-2 rounded-lg border border-emerald-200 bg-emerald-50/50 p-4" data-testid="invitation-created">
          <p className="text-sm text-slate-700">
            Link for a new <strong>{ROLE_LABELS[created.role]}</strong>
            {created.email ? ` (${created.email} only)` : ""}, valid once until {formatDateTime(created.expiresAt, Intl.DateTimeFormat().resolvedOptions().timeZone)}.{" "}
            {created.mailed
              ? `It was also mailed to ${created.email}.`
              : created.email
                ? "Mail is not configured on this server (or failed): send the link yourself."
                : "Send it to the person you invite."}
          </p>
          <CopyLink value={`${window.location.origin}${created.path}`} />
        </div>
      ) : null}
    </div>
  );
}
