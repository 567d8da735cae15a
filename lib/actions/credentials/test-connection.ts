"use server";

import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/session";
import { clientIp } from "@/lib/auth/request-meta";
import { formDataToObject, type ActionState } from "@/lib/forms/action-state";
import { testCredential } from "@/lib/credentials/store";
import { errorState } from "@/lib/teams/action-errors";
import { testConnectionSchema } from "./test-connection.validation";

export type ConnectionTestData = { expiresAt: string; webhookGroupCount: number };

/** Gets a token with the actor's own saved credentials and counts the webhook groups they see. */
export async function testConnectionAction(_previous: ActionState<ConnectionTestData>, formData: FormData): Promise<ActionState<ConnectionTestData>> {
  const actor = await requireActor();
  testConnectionSchema.parse(formDataToObject(formData));
  try {
    const result = await testCredential(actor, { ip: await clientIp() });
    revalidatePath("/settings");
    if (!result.ok) return { status: "error", message: result.message };
    return {
      status: "success",
      message: `Connected. The account sees ${result.webhookGroupCount} webhook group${result.webhookGroupCount === 1 ? "" : "s"}.`,
      data: { expiresAt: result.expiresAt.toISOString(), webhookGroupCount: result.webhookGroupCount },
    };
  } catch (error) {
    return errorState(error, "credentials.test-connection");
  }
}
