-- A lease instead of an advisory lock held across the token request (lib/ems/token-cache.ts):
-- one instance at a time may refresh a credential's token, without keeping a connection open.
-- AlterTable
ALTER TABLE "EmsTokenCache" ADD COLUMN     "leaseId" TEXT,
ADD COLUMN     "leaseUntil" TIMESTAMP(3);
