-- The retention job (lib/retention/prune.ts) deletes rows older than a cut-off in batches: one
-- index on the creation time of each table it prunes, so each batch finds its rows without a scan.
-- (Named after the latest migration so that it runs after AuthAttempt exists.)

-- CreateIndex
CREATE INDEX "AuditLog_createdAt_idx" ON "AuditLog"("createdAt");

-- CreateIndex
CREATE INDEX "AuthAttempt_createdAt_idx" ON "AuthAttempt"("createdAt");

-- CreateIndex
CREATE INDEX "UserSession_createdAt_idx" ON "UserSession"("createdAt");
