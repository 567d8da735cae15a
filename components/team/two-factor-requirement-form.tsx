import Link from "next/link";
import { requireTwoFactorAction } from "@/lib/actions/team/require-two-factor";
import { ActionForm } from "@/components/forms/action-form";
import { Button } from "@/components/ui/button";

/** An owner's switch: two-factor sign-in required for everyone in the team, or not. */
export function TwoFactorRequirementForm({ required, ownTwoFactor }: { required: boolean; ownTwoFactor: boolean }) {
  return (
    <ActionForm action={requireTwoFactorAction} className="flex flex-wrap items-center gap-3" testId="two-factor-requirement">
      <input type="hidden" name="required" value={required ? "false" : "true"} />
      <Button type="submit" variant={required ? "secondary" : "primary"} disabled={!required && !ownTwoFactor}>
        {required ? "Stop requiring two-factor" : "Require two-factor sign-in"}
      </Button>
      {!required && !ownTwoFactor ? (
        <span className="text-sm text-slate-600">
          Turn on two-factor for yourself first, on the{" "}
          <Link href="/account" className="text-brand-700 underline">
            Security
          </Link>{" "}
          page.
        </span>
      ) : null}
    </ActionForm>
  );
}
