import type { Metadata } from "next";
import { ListingPage } from "@/components/listing/listing-page";
import { requireActor } from "@/lib/auth/session";
import { loadListingPage } from "@/lib/listing-page/page-data";

export const metadata: Metadata = { title: "Webhooks" };

/** Every webhook of the account, one dense row each (docs/ems-api.md §4.1a): the portal's home. */
export default async function WebhooksPage(props: PageProps<"/webhooks">) {
  const actor = await requireActor();
  const data = await loadListingPage(actor, "webhooks", await props.searchParams);
  return <ListingPage data={data} />;
}
