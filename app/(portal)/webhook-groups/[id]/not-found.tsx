import Link from "next/link";

/** A group id that is not a number, or no group with it in this person's account: answered with 404. */
export default function GroupNotFound() {
  return (
    <div className="rounded-md border border-slate-200 bg-white p-6" data-testid="group-not-found">
      <h1 className="text-base font-semibold">No such webhook group in your account</h1>
      <p className="mt-1 text-sm text-slate-700">
        It may have been deleted, or it belongs to another account.{" "}
        <Link href="/webhook-groups" className="text-brand-700 underline">
          Back to the list
        </Link>
      </p>
    </div>
  );
}
