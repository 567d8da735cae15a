"use client";

import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { DATABASE_UNAVAILABLE_DIGEST, OUTAGE_EXPLANATION, OUTAGE_HEADING } from "@/lib/http/outage-page";

/** The first retry after a render found the database out of reach; proxy.ts answers the reload with the outage page (503) while it lasts. */
const OUTAGE_RETRY_SECONDS = 3;

/**
 * Any unexpected server error: a generic message (details stay in the server log) and a retry.
 * A render that could not reach the database (its digest says so: lib/db/outage.ts) says that
 * instead, and reloads by itself: the page it then gets is the proxy's outage page, or the page.
 */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const databaseUnavailable = error.digest === DATABASE_UNAVAILABLE_DIGEST;
  useEffect(() => {
    if (!databaseUnavailable) {
      console.error(error);
      return;
    }
    const timer = setTimeout(() => window.location.reload(), OUTAGE_RETRY_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [error, databaseUnavailable]);
  if (databaseUnavailable) {
    return (
      <main id="main" className="mx-auto max-w-lg px-4 py-24 text-center" data-testid="database-outage">
        <h1 className="text-2xl font-semibold">{OUTAGE_HEADING}</h1>
        <p className="mt-2 text-slate-600">{OUTAGE_EXPLANATION}</p>
        <Button className="mt-6" onClick={() => window.location.reload()}>
          Try again
        </Button>
        <p className="mt-3 text-sm text-slate-500" role="status">
          This page tries again by itself in {OUTAGE_RETRY_SECONDS} seconds.
        </p>
      </main>
    );
  }
  return (
    <main id="main" className="mx-auto max-w-lg px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-slate-600">Please try again. If it keeps happening, tell us the reference below.</p>
      {error.digest ? <p className="mt-2 font-mono text-xs text-slate-500">Reference: {error.digest}</p> : null}
      <Button className="mt-6" onClick={reset}>
        Try again
      </Button>
    </main>
  );
}
