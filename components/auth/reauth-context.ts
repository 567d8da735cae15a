"use client";

import { createContext, useContext } from "react";

/** Opens the "confirm it's you" dialog; resolves true once this session re-authenticated, false if cancelled. */
export type RequestReauth = () => Promise<boolean>;

export const ReauthContext = createContext<RequestReauth | null>(null);

/** The portal's way to ask for a re-authentication (components/auth/reauth-provider.tsx); null outside the portal. */
export function useReauth(): RequestReauth | null {
  return useContext(ReauthContext);
}
