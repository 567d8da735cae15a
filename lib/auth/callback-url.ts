/** Only same-site paths may be return addresses: never another origin, never a protocol-relative URL. */
export function safeCallbackUrl(value: string | string[] | undefined | null, fallback = "/"): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (!candidate || !candidate.startsWith("/") || candidate.startsWith("//") || candidate.startsWith("/\\")) return fallback;
  if (candidate.startsWith("/sign-in") || candidate.startsWith("/sign-up")) return fallback;
  return candidate;
}
