-- Health checks and coverage (lib/health, lib/coverage): a team's required triggers, muted findings,
-- and the counts of each person's last check that the navigation shows.
-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "requiredTriggers" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "HealthMute" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "findingKey" TEXT NOT NULL DEFAULT '',
    "reason" TEXT NOT NULL,
    "createdById" TEXT,
    "createdByEmail" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HealthMute_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HealthSummary" (
    "userId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "errors" INTEGER NOT NULL,
    "warnings" INTEGER NOT NULL,
    "notices" INTEGER NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HealthSummary_pkey" PRIMARY KEY ("userId")
);

-- CreateIndex
CREATE UNIQUE INDEX "HealthMute_teamId_ruleId_findingKey_key" ON "HealthMute"("teamId", "ruleId", "findingKey");

-- AddForeignKey
ALTER TABLE "HealthMute" ADD CONSTRAINT "HealthMute_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HealthSummary" ADD CONSTRAINT "HealthSummary_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
