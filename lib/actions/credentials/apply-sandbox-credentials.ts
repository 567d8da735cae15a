"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { sandboxSettings } from "@/lib/env";
import { formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "@/lib/sandbox/demo-credentials";
import { sandboxBaseUrl } from "@/lib/credentials/sandbox";
import { saveCredential, testCredential } from "@/lib/credentials/store";
import { errorState } from "@/lib/teams/action-errors";
import { applySandboxCredentialsSchema } from "./apply-sandbox-credentials.validation";

/**
 * One click: the embedded sandbox's base URL with one of its demo accounts, filled in on the
 * server (so not even the demo secret travels to the browser), saved and tested.
 */
export async function applySandboxCredentialsAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const actor = await requireActor();
  if (!sandboxSettings().enabled) return { status: "error", message: "The sandbox is turned off on this server." };
  const parsed = applySandboxCredentialsSchema.safeParse(formDataToObject(formData));
  if (!parsed.success) return { status: "error", message: "Choose a sandbox account." };
  const account = parsed.data.account === "other" ? OTHER_CREDENTIALS : DEMO_CREDENTIALS;
  try {
    const ip = await clientIp();
    const baseUrl = sandboxBaseUrl(await headers());
    await saveCredential(actor, { baseUrl, consumerKey: account.consumerKey, consumerSecret: account.consumerSecret }, { ip });
    const result = await testCredential(actor, { ip });
    revalidatePath("/settings");
    return result.ok
      ? { status: "success", message: `Sandbox credentials saved and tested: the account sees ${result.webhookGroupCount} webhook groups.` }
      : { status: "error", message: `Sandbox credentials saved, but the test failed: ${result.message}` };
  } catch (error) {
    return errorState(error, "credentials.apply-sandbox");
  }
}
