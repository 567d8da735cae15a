"use client";

import { leaveTeamAction } from "@/lib/actions/team/leave-team";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/forms/form-message";
import { useActionForm } from "@/components/forms/use-action-form";

export function LeaveTeamForm({ teamName }: { teamName: string }) {
  const { state, pending, formProps, fieldErrors } = useActionForm(leaveTeamAction);
  return (
    <form {...formProps} noValidate className="max-w-md space-y-3" aria-label="Leave team">
      <FormMessage state={state} testId="leave-team" />
      <Field
        name="confirmTeamName"
        label={`Type “${teamName}” to confirm`}
        autoComplete="off"
        error={fieldErrors.confirmTeamName}
        hint="Your API credentials and personal views are deleted; views you shared stay with the team. You continue in a new team of your own."
      />
      <Button type="submit" variant="danger" pending={pending}>
        Leave team
      </Button>
    </form>
  );
}
