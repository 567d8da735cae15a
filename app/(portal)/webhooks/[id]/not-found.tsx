import { RecordNotFound } from "@/components/listing/record-not-found";

export default function WebhookNotFound() {
  return <RecordNotFound title="No such webhook in your account" backHref="/webhooks" backLabel="Back to the list" testId="webhook-not-found" />;
}
