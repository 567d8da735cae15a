-- A person's favourite saved views (shown first among a page's view tabs), per person; gone with
-- the view or the person.
CREATE TABLE "SavedViewFavourite" (
    "userId" TEXT NOT NULL,
    "viewId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SavedViewFavourite_pkey" PRIMARY KEY ("userId","viewId")
);

CREATE INDEX "SavedViewFavourite_viewId_idx" ON "SavedViewFavourite"("viewId");

ALTER TABLE "SavedViewFavourite" ADD CONSTRAINT "SavedViewFavourite_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "SavedViewFavourite" ADD CONSTRAINT "SavedViewFavourite_viewId_fkey" FOREIGN KEY ("viewId") REFERENCES "SavedView"("id") ON DELETE CASCADE ON UPDATE CASCADE;
