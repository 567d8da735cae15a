-- LoginAttempt becomes AuthAttempt (lib/auth/throttle.ts): it now counts guesses of a password
-- (sign-in and change password, kind 'password') and sign-ups (kind 'sign-up'), per account and
-- per client address. Renamed in place, so the failures of the current window survive a deploy.
ALTER TABLE "LoginAttempt" RENAME TO "AuthAttempt";
ALTER TABLE "AuthAttempt" RENAME CONSTRAINT "LoginAttempt_pkey" TO "AuthAttempt_pkey";
ALTER TABLE "AuthAttempt" RENAME COLUMN "email" TO "account";
ALTER TABLE "AuthAttempt" RENAME COLUMN "ip" TO "address";
ALTER TABLE "AuthAttempt" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'password';
ALTER TABLE "AuthAttempt" ALTER COLUMN "kind" DROP DEFAULT;

-- DropIndex
DROP INDEX "LoginAttempt_email_createdAt_idx";
DROP INDEX "LoginAttempt_ip_createdAt_idx";

-- CreateIndex
CREATE INDEX "AuthAttempt_kind_account_createdAt_idx" ON "AuthAttempt"("kind", "account", "createdAt");

-- CreateIndex
CREATE INDEX "AuthAttempt_kind_address_createdAt_idx" ON "AuthAttempt"("kind", "address", "createdAt");
