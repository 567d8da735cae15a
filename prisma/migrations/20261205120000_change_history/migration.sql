-- CreateTable
CREATE TABLE "ChangeTracker" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "accountKey" TEXT NOT NULL,
    "accountLabel" TEXT NOT NULL,
    "runnerId" TEXT,
    "createdById" TEXT,
    "createdByEmail" TEXT,
    "intervalMinutes" INTEGER NOT NULL DEFAULT 15,
    "status" TEXT NOT NULL DEFAULT 'active',
    "pausedReason" TEXT,
    "nextRunAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseId" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "lastRunAt" TIMESTAMP(3),
    "failingFindings" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "slackUrlCiphertext" TEXT,
    "slackUrlLabel" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChangeTracker_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SetupSync" (
    "id" TEXT NOT NULL,
    "trackerId" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "status" TEXT NOT NULL DEFAULT 'running',
    "message" TEXT,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "changeCount" INTEGER NOT NULL DEFAULT 0,
    "bytesStored" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SetupSync_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TrackedRecord" (
    "trackerId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "groupId" INTEGER,
    "name" TEXT,
    "digest" TEXT NOT NULL,
    "state" JSONB NOT NULL,
    "secretCiphertext" TEXT,

    CONSTRAINT "TrackedRecord_pkey" PRIMARY KEY ("trackerId","kind","recordId")
);

-- CreateTable
CREATE TABLE "SetupChange" (
    "id" TEXT NOT NULL,
    "trackerId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "syncId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "groupId" INTEGER,
    "recordName" TEXT,
    "groupName" TEXT,
    "change" TEXT NOT NULL,
    "field" TEXT,
    "before" JSONB,
    "after" JSONB,
    "secretCiphertext" TEXT,
    "changedBy" TEXT,
    "changedAt" TIMESTAMP(3),
    "seenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SetupChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SetupCheckpoint" (
    "id" TEXT NOT NULL,
    "trackerId" TEXT NOT NULL,
    "takenAt" TIMESTAMP(3) NOT NULL,
    "recordCount" INTEGER NOT NULL,
    "ciphertext" TEXT NOT NULL,

    CONSTRAINT "SetupCheckpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertPreference" (
    "userId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "emailChanges" BOOLEAN NOT NULL DEFAULT false,
    "emailHealth" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "AlertPreference_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "AlertDelivery" (
    "id" TEXT NOT NULL,
    "trackerId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "syncId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ListingVisit" (
    "userId" TEXT NOT NULL,
    "page" TEXT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,
    "markSince" TIMESTAMP(3),

    CONSTRAINT "ListingVisit_pkey" PRIMARY KEY ("userId","page")
);

-- CreateIndex
CREATE INDEX "ChangeTracker_status_nextRunAt_idx" ON "ChangeTracker"("status", "nextRunAt");

-- CreateIndex
CREATE UNIQUE INDEX "ChangeTracker_teamId_accountKey_key" ON "ChangeTracker"("teamId", "accountKey");

-- CreateIndex
CREATE INDEX "SetupSync_trackerId_startedAt_idx" ON "SetupSync"("trackerId", "startedAt");

-- CreateIndex
CREATE INDEX "TrackedRecord_trackerId_groupId_idx" ON "TrackedRecord"("trackerId", "groupId");

-- CreateIndex
CREATE INDEX "SetupChange_syncId_idx" ON "SetupChange"("syncId");

-- CreateIndex
CREATE INDEX "SetupChange_teamId_seenAt_idx" ON "SetupChange"("teamId", "seenAt");

-- CreateIndex
CREATE INDEX "SetupChange_trackerId_groupId_seenAt_idx" ON "SetupChange"("trackerId", "groupId", "seenAt");

-- CreateIndex
CREATE INDEX "SetupChange_trackerId_kind_recordId_seenAt_idx" ON "SetupChange"("trackerId", "kind", "recordId", "seenAt");

-- CreateIndex
CREATE INDEX "SetupCheckpoint_trackerId_takenAt_idx" ON "SetupCheckpoint"("trackerId", "takenAt");

-- CreateIndex
CREATE INDEX "AlertDelivery_status_nextAttemptAt_idx" ON "AlertDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "AlertDelivery_trackerId_createdAt_idx" ON "AlertDelivery"("trackerId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "AlertDelivery_syncId_channel_recipient_key" ON "AlertDelivery"("syncId", "channel", "recipient");

-- AddForeignKey
ALTER TABLE "ChangeTracker" ADD CONSTRAINT "ChangeTracker_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeTracker" ADD CONSTRAINT "ChangeTracker_runnerId_fkey" FOREIGN KEY ("runnerId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SetupSync" ADD CONSTRAINT "SetupSync_trackerId_fkey" FOREIGN KEY ("trackerId") REFERENCES "ChangeTracker"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TrackedRecord" ADD CONSTRAINT "TrackedRecord_trackerId_fkey" FOREIGN KEY ("trackerId") REFERENCES "ChangeTracker"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SetupChange" ADD CONSTRAINT "SetupChange_trackerId_fkey" FOREIGN KEY ("trackerId") REFERENCES "ChangeTracker"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SetupChange" ADD CONSTRAINT "SetupChange_syncId_fkey" FOREIGN KEY ("syncId") REFERENCES "SetupSync"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SetupCheckpoint" ADD CONSTRAINT "SetupCheckpoint_trackerId_fkey" FOREIGN KEY ("trackerId") REFERENCES "ChangeTracker"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertPreference" ADD CONSTRAINT "AlertPreference_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertDelivery" ADD CONSTRAINT "AlertDelivery_trackerId_fkey" FOREIGN KEY ("trackerId") REFERENCES "ChangeTracker"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ListingVisit" ADD CONSTRAINT "ListingVisit_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
