"use client";

import { createContext, useContext } from "react";
import type { ReauthProof } from "@/lib/forms/action-state";

/**
 * Opens the "confirm it's you" dialog asking for `proof` ("any" by default); resolves true once this
 * session re-authenticated, false if cancelled.
 */
export type RequestReauth = (proof?: ReauthProof) => Promise<boolean>;

export const ReauthContext = createContext<RequestReauth | null>(null);

/** The portal's way to ask for a re-authentication (components/auth/reauth-provider.tsx); null outside the portal. */
export function useReauth(): RequestReauth | null {
  return useContext(ReauthContext);
}
