import Link from "next/link";

/** An event id that is not a number, or no event with it in this person's account: answered with 404. */
export default function EventNotFound() {
  return (
    <div className="rounded-md border border-slate-200 bg-white p-6" data-testid="event-not-found">
      <h1 className="text-base font-semibold">No such event in your account</h1>
      <p className="mt-1 text-sm text-slate-700">
        It may have been deleted, or it belongs to another account.{" "}
        <Link href="/events" className="text-brand-700 underline">
          Back to the events
        </Link>
      </p>
    </div>
  );
}
