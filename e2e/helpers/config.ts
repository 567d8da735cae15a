/** Shared by playwright.config.ts, the e2e server and the specs. */
export const E2E_PORT = Number(process.env.E2E_PORT || 3100);
export const E2E_BASE_URL = process.env.E2E_BASE_URL || `http://localhost:${E2E_PORT}`;
export const E2E_SANDBOX_ADMIN_SECRET = process.env.E2E_SANDBOX_ADMIN_SECRET || "e2e-sandbox-admin-secret-0123456789";
