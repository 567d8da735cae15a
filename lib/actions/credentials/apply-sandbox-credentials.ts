"use server";

import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/actions/pipeline";
import { applySandboxCredentials, sandboxAppliedMessage } from "@/lib/credentials/sandbox";
import { applySandboxCredentialsSchema } from "./apply-sandbox-credentials.validation";

/** One click: the embedded sandbox's demo account saved and tested as the person's credential (lib/credentials/sandbox.ts). */
export const applySandboxCredentialsAction = authedAction(
  { name: "credentials.apply-sandbox", schema: applySandboxCredentialsSchema, invalidMessage: "Choose a sandbox account.", recentAuth: true },
  async ({ account }, { actor, ip }) => {
    const result = await applySandboxCredentials(actor, account, { ip });
    // Saved either way: Settings shows the new credential, tested or not.
    revalidatePath("/settings");
    return { message: sandboxAppliedMessage(result) };
  },
);
