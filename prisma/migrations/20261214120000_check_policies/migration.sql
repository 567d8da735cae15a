-- Checks that draft their own fixes (issue 37 §2): a team's policy per Health check, and the check
-- and findings a plan the portal drafted by that policy fixes.
-- CreateTable
CREATE TABLE "HealthCheckPolicy" (
    "teamId" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "updatedById" TEXT,
    "updatedByEmail" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "HealthCheckPolicy_pkey" PRIMARY KEY ("teamId","ruleId")
);

-- AlterTable
ALTER TABLE "ChangePlan" ADD COLUMN     "fixCheck" TEXT,
ADD COLUMN     "fixFindings" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "ChangePlan_teamId_fixCheck_idx" ON "ChangePlan"("teamId", "fixCheck");

-- AddForeignKey
ALTER TABLE "HealthCheckPolicy" ADD CONSTRAINT "HealthCheckPolicy_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
