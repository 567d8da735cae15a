// The headers of the request a server action runs in. No imports on purpose: the `next/headers`
// stand-in (./next-headers.ts) reads it, and anything it imported that itself imports
// `next/headers` would wait on the mock being built.
let current = new Headers();

export function currentRequestHeaders(): Headers {
  return current;
}

export function setCurrentRequestHeaders(headers: Headers): void {
  current = headers;
}
