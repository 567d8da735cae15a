"use client";

import "./globals.css";
import ErrorPage from "./error";

/**
 * The root boundary: an error the root layout itself throws (app/error.tsx sits below that layout
 * and cannot catch it). Without this file Next shows its bare default; with it the same words as
 * app/error.tsx, the database-outage wording included, inside a document of its own.
 */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <ErrorPage error={error} reset={reset} />
      </body>
    </html>
  );
}
