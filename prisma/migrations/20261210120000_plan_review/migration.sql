-- Reviewed plans and undo (issue 27 §2, lib/plans): who approved which content, rejections, cancel,
-- the plan an undo reverts, each step's before-state (encrypted), and the team's review setting.
-- AlterTable
ALTER TABLE "ChangePlan" ADD COLUMN     "appliedById" TEXT,
ADD COLUMN     "approvedAt" TIMESTAMP(3),
ADD COLUMN     "approvedByEmail" TEXT,
ADD COLUMN     "approvedById" TEXT,
ADD COLUMN     "approvedDigest" TEXT,
ADD COLUMN     "cancelRequestedAt" TIMESTAMP(3),
ADD COLUMN     "rejectReason" TEXT,
ADD COLUMN     "rejectedAt" TIMESTAMP(3),
ADD COLUMN     "rejectedById" TEXT,
ADD COLUMN     "revertsPlanId" TEXT,
ADD COLUMN     "submittedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "ChangePlanStep" ADD COLUMN     "beforeCiphertext" TEXT;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "planReview" BOOLEAN;
