-- Shared listing answers (one API call for identical page views of a team's credential, across
-- instances; lib/ems/answer-cache.ts) and credits spent per kind of work and minute (lib/ems/budget.ts).
-- CreateTable
CREATE TABLE "EmsSharedAnswer" (
    "teamId" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "queryHash" TEXT NOT NULL,
    "ciphertext" TEXT,
    "fetchedAt" TIMESTAMP(3),
    "leaseId" TEXT,
    "leaseUntil" TIMESTAMP(3),

    CONSTRAINT "EmsSharedAnswer_pkey" PRIMARY KEY ("teamId","fingerprint","queryHash")
);

-- CreateTable
CREATE TABLE "EmsBudgetUsage" (
    "teamId" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "minute" TIMESTAMP(3) NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "credits" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "EmsBudgetUsage_pkey" PRIMARY KEY ("teamId","fingerprint","kind","minute")
);

-- CreateIndex
CREATE INDEX "EmsSharedAnswer_fingerprint_idx" ON "EmsSharedAnswer"("fingerprint");

-- CreateIndex
CREATE INDEX "EmsSharedAnswer_fetchedAt_idx" ON "EmsSharedAnswer"("fetchedAt");

-- CreateIndex
CREATE INDEX "EmsBudgetUsage_minute_idx" ON "EmsBudgetUsage"("minute");

-- AddForeignKey
ALTER TABLE "EmsSharedAnswer" ADD CONSTRAINT "EmsSharedAnswer_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EmsBudgetUsage" ADD CONSTRAINT "EmsBudgetUsage_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;


