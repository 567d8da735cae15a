import Link from "next/link";
import { redirect } from "next/navigation";
import { requireActor } from "@/lib/auth/session";
import { getVisibleView, viewHref } from "@/lib/views/views";

/** /views/ID opens the view (its page with its options); it never tells whether an unseen view exists. */
export default async function OpenViewPage(props: PageProps<"/views/[id]">) {
  const actor = await requireActor();
  const { id } = await props.params;
  const view = await getVisibleView(actor, id);
  if (view) redirect(viewHref(view));
  return (
    <div className="space-y-2" data-testid="view-unavailable">
      <h1 className="text-2xl font-semibold text-slate-900">View not available</h1>
      <p className="text-sm text-slate-700">
        That saved view does not exist or is not shared with you. Ask for the view&apos;s full link (it carries its filters), or{" "}
        <Link href="/views" className="text-brand-700 underline">
          see your views
        </Link>
        .
      </p>
    </div>
  );
}
