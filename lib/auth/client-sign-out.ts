/**
 * Signs this browser out through next-auth's own endpoint (CSRF token first, then the POST), as
 * `next-auth/react`'s signOut does, without loading that library on every page of the shell.
 * The server's signOut event revokes the session row.
 */
export async function signOutAndLeave(callbackUrl = "/sign-in"): Promise<void> {
  const { csrfToken } = (await (await fetch("/api/auth/csrf")).json()) as { csrfToken: string };
  await fetch("/api/auth/signout", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
    body: new URLSearchParams({ csrfToken, callbackUrl, json: "true" }),
  });
  window.location.assign(callbackUrl);
}
