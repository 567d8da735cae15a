import Link from "next/link";

/**
 * A record's page whose id is not a number, or names nothing in this person's account (answered
 * with 404): it may have been deleted, or belong to another account; the way back to its list.
 */
export function RecordNotFound({ title, backHref, backLabel, testId }: { title: string; backHref: string; backLabel: string; testId: string }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white p-6" data-testid={testId}>
      <h1 className="text-base font-semibold">{title}</h1>
      <p className="mt-1 text-sm text-slate-700">
        It may have been deleted, or it belongs to another account.{" "}
        <Link href={backHref} className="text-brand-700 underline">
          {backLabel}
        </Link>
      </p>
    </div>
  );
}
