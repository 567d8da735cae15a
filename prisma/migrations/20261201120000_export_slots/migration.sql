-- Exports under way, one row each, so that a person's number of concurrent exports is limited
-- across instances (lib/listing/export-slots.ts).
-- CreateTable
CREATE TABLE "ExportSlot" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExportSlot_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ExportSlot_userId_expiresAt_idx" ON "ExportSlot"("userId", "expiresAt");
