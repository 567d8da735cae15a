-- How often a person opens a saved view (the listing's tabs show favourites, then the most used),
-- per person; gone with the view or the person.
CREATE TABLE "SavedViewUsage" (
    "userId" TEXT NOT NULL,
    "viewId" TEXT NOT NULL,
    "useCount" INTEGER NOT NULL DEFAULT 1,
    "lastUsedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SavedViewUsage_pkey" PRIMARY KEY ("userId","viewId")
);

CREATE INDEX "SavedViewUsage_viewId_idx" ON "SavedViewUsage"("viewId");

ALTER TABLE "SavedViewUsage" ADD CONSTRAINT "SavedViewUsage_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "SavedViewUsage" ADD CONSTRAINT "SavedViewUsage_viewId_fkey" FOREIGN KEY ("viewId") REFERENCES "SavedView"("id") ON DELETE CASCADE ON UPDATE CASCADE;
