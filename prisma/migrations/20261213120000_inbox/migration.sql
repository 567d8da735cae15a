-- An inbox (issue 37 §4, lib/inbox): what waits for each person, fed by the plan lifecycle's moves,
-- at most one item per person and occasion; and which kinds also reach them by email or Slack.
-- CreateTable
CREATE TABLE "InboxItem" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "planId" TEXT,
    "planTitle" TEXT NOT NULL,
    "actorLabel" TEXT,
    "detail" TEXT,
    "dedupeKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "readAt" TIMESTAMP(3),

    CONSTRAINT "InboxItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InboxPreference" (
    "userId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "email" BOOLEAN NOT NULL,
    "slack" BOOLEAN NOT NULL,

    CONSTRAINT "InboxPreference_pkey" PRIMARY KEY ("userId","kind")
);

-- CreateIndex
CREATE INDEX "InboxItem_userId_teamId_readAt_idx" ON "InboxItem"("userId", "teamId", "readAt");

-- CreateIndex
CREATE INDEX "InboxItem_userId_teamId_createdAt_idx" ON "InboxItem"("userId", "teamId", "createdAt");

-- CreateIndex
CREATE INDEX "ChangePlan_revertsPlanId_idx" ON "ChangePlan"("revertsPlanId");

-- CreateIndex
CREATE UNIQUE INDEX "InboxItem_userId_dedupeKey_key" ON "InboxItem"("userId", "dedupeKey");

-- AddForeignKey
ALTER TABLE "InboxItem" ADD CONSTRAINT "InboxItem_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InboxItem" ADD CONSTRAINT "InboxItem_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InboxItem" ADD CONSTRAINT "InboxItem_planId_fkey" FOREIGN KEY ("planId") REFERENCES "ChangePlan"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InboxPreference" ADD CONSTRAINT "InboxPreference_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
