-- The webhooks every new event should have (issue 37 §2): a live event missing a required trigger
-- gets a drafted plan that adds it to these webhooks and to every webhook of the named group.
-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "newEventGroupId" INTEGER,
ADD COLUMN     "newEventWebhookIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[];
