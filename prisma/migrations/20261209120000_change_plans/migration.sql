-- Plans of changes to a team's webhook setup (issue 27 §2, lib/plans): a plan and its ordered steps,
-- applied one applier at a time (leaseId/leaseUntil, like ChangeTracker), each step started once.
-- CreateTable
CREATE TABLE "ChangePlan" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "accountKey" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "authorId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "leaseId" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "stopReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "appliedAt" TIMESTAMP(3),

    CONSTRAINT "ChangePlan_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChangePlanStep" (
    "id" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "operation" TEXT NOT NULL,
    "recordId" INTEGER,
    "changesCiphertext" TEXT NOT NULL,
    "expectedUpdatedAt" TEXT,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "message" TEXT,
    "startedBy" TEXT,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ChangePlanStep_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChangePlan_teamId_status_idx" ON "ChangePlan"("teamId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ChangePlanStep_planId_position_key" ON "ChangePlanStep"("planId", "position");

-- AddForeignKey
ALTER TABLE "ChangePlan" ADD CONSTRAINT "ChangePlan_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangePlanStep" ADD CONSTRAINT "ChangePlanStep_planId_fkey" FOREIGN KEY ("planId") REFERENCES "ChangePlan"("id") ON DELETE CASCADE ON UPDATE CASCADE;
