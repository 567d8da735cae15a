import { isSafeError, userMessageOf } from "@/lib/errors";
import { z } from "zod";

/** What a view form shows after its server action ran. */
export type ViewActionResult = { ok: boolean; message: string } | null;

export function failure(error: unknown): ViewActionResult {
  if (error instanceof z.ZodError) return { ok: false, message: error.issues[0]?.message ?? "Check the form." };
  if (!isSafeError(error)) console.error("[views] action failed", error);
  return { ok: false, message: userMessageOf(error) };
}

export function formObject(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of formData.entries()) if (typeof value === "string") out[key] = value;
  return out;
}
