-- Change history from the first minute (issue 37 §1, lib/history/auto-tracking.ts): whether saving a
-- credential for an account the team does not track starts tracking it. Off once an owner or admin
-- stops tracking by hand, so the portal never undoes their choice.
-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "autoTrackHistory" BOOLEAN NOT NULL DEFAULT true;
