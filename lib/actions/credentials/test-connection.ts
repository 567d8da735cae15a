"use server";

import { revalidatePath } from "next/cache";
import { authedAction, NO_INPUT } from "@/lib/actions/pipeline";
import { SafeError } from "@/lib/errors";
import { testCredential } from "@/lib/credentials/store";
import { plural } from "@/lib/text/plural";

export type ConnectionTestData = { expiresAt: string; webhookGroupCount: number };

/** Gets a token with the actor's own saved credentials and counts the webhook groups they see. */
export const testConnectionAction = authedAction(
  { name: "credentials.test-connection", schema: NO_INPUT },
  async (_input, { actor, ip }): Promise<{ message: string; data: ConnectionTestData }> => {
    const result = await testCredential(actor, { ip });
    // The outcome is recorded on the credential either way: the page shows it.
    revalidatePath("/settings");
    if (!result.ok) throw new SafeError(result.message, "test_failed");
    return {
      message: `Connected. The account sees ${plural(result.webhookGroupCount, "webhook group")}.`,
      data: { expiresAt: result.expiresAt.toISOString(), webhookGroupCount: result.webhookGroupCount },
    };
  },
);
