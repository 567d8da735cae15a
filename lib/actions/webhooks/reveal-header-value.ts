"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { revealHeaderValue } from "@/lib/listing/reveal-header";
import { revealHeaderValueSchema } from "./reveal-header-value.validation";

export type RevealedHeader = { value: string };

/**
 * "Reveal" on a group's page: the value of one header, which the page itself never carries. A recent
 * re-authentication first (else `reauthRequired`, and the form asks for it); the data function reads
 * the group with the person's own credential and records the reveal, without the value. Nothing is
 * revalidated: the value goes back to the button that asked, and into no page.
 */
export const revealHeaderValueAction = authedAction(
  { name: "webhooks.reveal-header-value", schema: revealHeaderValueSchema, invalidMessage: "That header cannot be revealed.", recentAuth: true },
  async (input, { actor, ip }): Promise<{ data: RevealedHeader }> => ({ data: await revealHeaderValue(actor, input, { ip }) }),
);
