import type { Metadata } from "next";
import { ListingPage } from "@/components/listing/listing-page";
import { requireActor } from "@/lib/auth/session";
import { loadListingPage } from "@/lib/listing-page/page-data";

export const metadata: Metadata = { title: "Webhook groups" };

export default async function WebhookGroupsPage(props: PageProps<"/webhook-groups">) {
  const actor = await requireActor();
  const data = await loadListingPage(actor, "webhook-groups", await props.searchParams);
  return <ListingPage data={data} />;
}
