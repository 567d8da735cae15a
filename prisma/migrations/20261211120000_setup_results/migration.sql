-- What Health and Coverage compute from a team's stored setup, kept per setup (issue 34 §2):
-- a fresh process reads about a megabyte instead of the setup's stored answers (lib/setup/stored-results.ts).
-- CreateTable
CREATE TABLE "SetupResult" (
    "teamId" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "optionsKey" TEXT NOT NULL,
    "setupKey" TEXT NOT NULL,
    "groupPages" INTEGER NOT NULL,
    "eventPages" INTEGER NOT NULL,
    "ciphertext" TEXT NOT NULL,
    "storedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SetupResult_pkey" PRIMARY KEY ("teamId","fingerprint","kind","optionsKey")
);

-- CreateIndex
CREATE INDEX "SetupResult_fingerprint_idx" ON "SetupResult"("fingerprint");

-- CreateIndex
CREATE INDEX "SetupResult_storedAt_idx" ON "SetupResult"("storedAt");

-- AddForeignKey
ALTER TABLE "SetupResult" ADD CONSTRAINT "SetupResult_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
