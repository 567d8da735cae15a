-- The first-run checklist: when a member first opened the webhook groups listing with working
-- credentials (one of its steps), and when they dismissed it (it is then never shown again).
ALTER TABLE "Membership" ADD COLUMN "webhookGroupsSeenAt" TIMESTAMP(3),
ADD COLUMN "checklistDismissedAt" TIMESTAMP(3);
