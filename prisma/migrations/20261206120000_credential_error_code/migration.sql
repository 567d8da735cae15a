-- The kind of the last failed check (an EMS error code such as ems_credentials_rejected or
-- ems_timeout), so that Settings can say Rejected or Unreachable rather than only the message.
ALTER TABLE "ApiCredential" ADD COLUMN "lastErrorCode" TEXT;
