"use client";

import { changeMemberRoleAction } from "@/lib/actions/team/change-member-role";
import { removeMemberAction } from "@/lib/actions/team/remove-member";
import { ROLE_LABELS, type TeamRole } from "@/lib/access/roles";
import { Button } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/forms/form-message";
import { toastSuccess } from "@/components/forms/toast-success";
import { useActionForm } from "@/components/forms/use-action-form";

export function ChangeRoleForm({ membershipId, name, role, roles }: { membershipId: string; name: string; role: TeamRole; roles: TeamRole[] }) {
  const { state, pending, formProps } = useActionForm(changeMemberRoleAction, { onSuccess: toastSuccess });
  const selectId = `role-${membershipId}`;
  return (
    <form {...formProps} className="flex flex-wrap items-center gap-2" aria-label={`Change ${name}'s role`}>
      <input type="hidden" name="membershipId" value={membershipId} />
      <label htmlFor={selectId} className="sr-only">
        Role for {name}
      </label>
      <select
        id={selectId}
        name="role"
        defaultValue={role}
        className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
      >
        {roles.map((option) => (
          <option key={option} value={option}>
            {ROLE_LABELS[option]}
          </option>
        ))}
      </select>
      <Button type="submit" variant="secondary" size="sm" pending={pending}>
        Save role
      </Button>
      <div className="w-full">
        <FormMessage state={state} testId={`role-${membershipId}`} />
      </div>
    </form>
  );
}

export function RemoveMemberForm({ membershipId, name }: { membershipId: string; name: string }) {
  const { state, pending, formProps } = useActionForm(removeMemberAction, { onSuccess: toastSuccess });
  return (
    <form {...formProps} className="flex flex-wrap items-center gap-2" aria-label={`Remove ${name}`}>
      <input type="hidden" name="membershipId" value={membershipId} />
      <ConfirmSubmit
        trigger="Remove…"
        title={`Remove ${name} from the team?`}
        description="Their sessions end at their next request, and their API credentials and personal views are deleted. Views they shared stay with the team."
        confirmLabel="Yes, remove"
        pending={pending}
        testId={`remove-member-${membershipId}`}
      />
      <div className="w-full">
        <FormMessage state={state} testId={`remove-${membershipId}`} />
      </div>
    </form>
  );
}
