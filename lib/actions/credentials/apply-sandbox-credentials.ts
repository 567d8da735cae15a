"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { authedAction } from "@/lib/actions/pipeline";
import { SafeError } from "@/lib/errors";
import { sandboxSettings } from "@/lib/env";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { sandboxBaseUrl } from "@/lib/credentials/sandbox";
import { checkEmsBaseUrl } from "@/lib/ems/destination";
import { saveCredential, testCredential } from "@/lib/credentials/store";
import { applySandboxCredentialsSchema } from "./apply-sandbox-credentials.validation";

/**
 * One click: the embedded sandbox's base URL with one of its demo accounts, filled in on the
 * server (so not even the demo secret travels to the browser), saved and tested.
 */
export const applySandboxCredentialsAction = authedAction(
  { name: "credentials.apply-sandbox", schema: applySandboxCredentialsSchema, invalidMessage: "Choose a sandbox account.", recentAuth: true },
  async ({ account }, { actor, ip }) => {
    if (!sandboxSettings().enabled) throw new SafeError("The sandbox is turned off on this server.", "sandbox_off");
    const { consumerKey, consumerSecret } = account === "other" ? OTHER_CREDENTIALS : DEMO_CREDENTIALS;
    // Built from the request's Host: reached through another name, it is not this portal's own origin.
    const baseUrl = sandboxBaseUrl(await headers());
    if (!checkEmsBaseUrl(baseUrl).ok) {
      throw new SafeError("The built-in sandbox can only be used through this portal's own address. Open the portal at the address it is configured with and try again.", "sandbox_unreachable");
    }
    await saveCredential(actor, { baseUrl, consumerKey, consumerSecret }, { ip });
    const result = await testCredential(actor, { ip });
    revalidatePath("/settings");
    if (!result.ok) throw new SafeError(`Sandbox credentials saved, but the test failed: ${result.message}`, "test_failed");
    return { message: `Sandbox credentials saved and tested: the account sees ${result.webhookGroupCount} webhook groups.` };
  },
);
