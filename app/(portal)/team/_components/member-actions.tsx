"use client";

import { useState } from "react";
import { changeMemberRoleAction } from "@/lib/actions/team/change-member-role";
import { removeMemberAction } from "@/lib/actions/team/remove-member";
import { ROLE_LABELS, type TeamRole } from "@/lib/teams/roles";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

export function ChangeRoleForm({ membershipId, name, role, roles }: { membershipId: string; name: string; role: TeamRole; roles: TeamRole[] }) {
  const { state, pending, formProps } = useActionForm(changeMemberRoleAction);
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
      <Button type="submit" variant="secondary" className="px-3 py-1.5" pending={pending}>
        Save role
      </Button>
      <div className="w-full">
        <FormMessage state={state} testId={`role-${membershipId}`} />
      </div>
    </form>
  );
}

export function RemoveMemberForm({ membershipId, name }: { membershipId: string; name: string }) {
  const { state, pending, formProps } = useActionForm(removeMemberAction);
  const [confirming, setConfirming] = useState(false);
  return (
    <form {...formProps} className="flex flex-wrap items-center gap-2" aria-label={`Remove ${name}`}>
      <input type="hidden" name="membershipId" value={membershipId} />
      {confirming ? (
        <>
          <span className="text-sm text-slate-700">Remove {name}? Their sessions end, and their credentials and personal views are deleted.</span>
          <Button type="submit" variant="danger" className="px-3 py-1.5" pending={pending}>
            Yes, remove
          </Button>
          <Button type="button" variant="ghost" className="px-3 py-1.5" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </>
      ) : (
        <Button type="button" variant="ghost" className="px-3 py-1.5 text-red-700" onClick={() => setConfirming(true)}>
          Remove…
        </Button>
      )}
      <div className="w-full">
        <FormMessage state={state} testId={`remove-${membershipId}`} />
      </div>
    </form>
  );
}
