import Link from "next/link";
import { historyVisibilityRule, type TrackedAccount } from "@/lib/history/access";
import { Notice } from "@/components/ui/notice";

/**
 * Why this person sees no history of some tracked accounts (lib/history/access.ts), with the way
 * in: their own credentials of that account, in Settings. An explanation, not an error page.
 */
export function HistoryRefusal({ accounts, testId = "history-refused" }: { accounts: readonly TrackedAccount[]; testId?: string }) {
  if (accounts.length === 0) return null;
  return (
    <Notice tone="info" title="Change history you cannot see" testId={testId}>
      {accounts.map((account) => (
        <p key={account.id}>{historyVisibilityRule(account.accountLabel)}</p>
      ))}
      <p className="mt-1">
        Add your credentials in{" "}
        <Link href="/settings/credentials" className="font-medium underline" data-testid="history-refused-settings">
          Settings
        </Link>
        .
      </p>
    </Notice>
  );
}
