import { test as setup } from "@playwright/test";
import { createAdminClient } from "@/lib/sandbox/testing";
import { E2E_BASE_URL, E2E_SANDBOX_ADMIN_SECRET, ROLE_STATE } from "./helpers/config";
import { signUpWithSandbox } from "./listing-helpers";

// Every spec lists through the embedded sandbox's demo account, whose real-world budget (2,000
// credits per 10 minutes) a whole suite run would exhaust. The rate-limit spec uses a sandbox of
// its own (e2e/faults.spec.ts).
setup("raise the embedded sandbox's rate limit for the suite", async () => {
  await createAdminClient(`${E2E_BASE_URL}/sandbox`, E2E_SANDBOX_ADMIN_SECRET).setRateLimit({ credits: 1_000_000_000 });
});

// Signed in once, reused by every spec that only reads listings (they change nothing this person
// owns). Specs that save views, change credentials or teams sign up people of their own.
setup("sign in the lister: an owner with the sandbox's demo credentials", async ({ page }) => {
  await signUpWithSandbox(page, "lister");
  await page.context().storageState({ path: ROLE_STATE.lister });
});
