import type { Metadata } from "next";
import { ListingPage } from "@/components/listing/listing-page";
import { requireActor } from "@/lib/auth/session";
import { loadListingPage } from "@/lib/listing-page/page-data";

export const metadata: Metadata = { title: "Events" };

export default async function EventsPage(props: PageProps<"/events">) {
  const actor = await requireActor();
  const data = await loadListingPage(actor, "events", await props.searchParams);
  return <ListingPage data={data} />;
}
