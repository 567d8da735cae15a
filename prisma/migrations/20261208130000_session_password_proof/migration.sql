-- When a session last proved its password (its sign-in, or a re-authentication with the password):
-- enrolling in two-factor, new recovery codes and ending other sessions need it recent, not just a
-- code (lib/auth/reauth.ts). Existing sessions count from their sign-in, never from this migration,
-- so a cookie taken before the deployment gains nothing from it.
ALTER TABLE "UserSession" ADD COLUMN "passwordVerifiedAt" TIMESTAMP(3);
UPDATE "UserSession" SET "passwordVerifiedAt" = "createdAt";
ALTER TABLE "UserSession" ALTER COLUMN "passwordVerifiedAt" SET NOT NULL;
ALTER TABLE "UserSession" ALTER COLUMN "passwordVerifiedAt" SET DEFAULT CURRENT_TIMESTAMP;
