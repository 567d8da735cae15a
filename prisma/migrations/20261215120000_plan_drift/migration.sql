-- Drift from applied plans (issue 37 §3, lib/plans/drift.ts): a record a history sync saw change
-- away from what an applied plan set, one row per plan, record and field; and an index to find the
-- applied steps of the records a sync saw change.
-- CreateTable
CREATE TABLE "PlanDrift" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "stepId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "recordName" TEXT,
    "field" TEXT NOT NULL,
    "changedBy" TEXT,
    "changedAt" TIMESTAMP(3),
    "syncId" TEXT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "acceptedById" TEXT,
    "acceptedByEmail" TEXT,
    "acceptedAt" TIMESTAMP(3),
    "reapplyPlanId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PlanDrift_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PlanDrift_teamId_status_seenAt_idx" ON "PlanDrift"("teamId", "status", "seenAt");

-- CreateIndex
CREATE UNIQUE INDEX "PlanDrift_planId_kind_recordId_field_key" ON "PlanDrift"("planId", "kind", "recordId", "field");

-- CreateIndex
CREATE INDEX "ChangePlanStep_recordId_idx" ON "ChangePlanStep"("recordId");

-- AddForeignKey
ALTER TABLE "PlanDrift" ADD CONSTRAINT "PlanDrift_planId_fkey" FOREIGN KEY ("planId") REFERENCES "ChangePlan"("id") ON DELETE CASCADE ON UPDATE CASCADE;
