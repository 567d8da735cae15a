import { test as setup } from "@playwright/test";
import { createAdminClient } from "@/lib/sandbox/testing";
import { E2E_BASE_URL, E2E_SANDBOX_ADMIN_SECRET } from "./helpers/config";

// Every spec lists through the embedded sandbox's demo account, whose real-world budget (2,000
// credits per 10 minutes) a whole suite run would exhaust. Specs that test rate limiting set their
// own limit through the same admin endpoint.
setup("raise the embedded sandbox's rate limit for the suite", async () => {
  await createAdminClient(`${E2E_BASE_URL}/sandbox`, E2E_SANDBOX_ADMIN_SECRET).setRateLimit({ credits: 1_000_000_000 });
});
