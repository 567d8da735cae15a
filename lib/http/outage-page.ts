/**
 * The page every page request gets while the database is out of reach (proxy.ts, 503): what is
 * wrong in plain words, that it tries again by itself, and a "Try again" button. Plain HTML written
 * by the proxy, before any rendering: the portal's layouts and pages all need the database, so
 * none of them can draw this. It needs no script (the retry is a `<meta http-equiv="refresh">`) and
 * its one stylesheet carries the response's CSP nonce. Pure: no Next.js, no environment, so
 * app/error.tsx can use its words in the browser.
 */

/**
 * The digest of a page's render error when the database was out of reach (lib/db/outage.ts sets it
 * on its DatabaseUnavailableError): React keeps a digest an error already has, so app/error.tsx, in
 * the browser, can tell this failure from any other and say the same as this page.
 */
export const DATABASE_UNAVAILABLE_DIGEST = "EMS_DATABASE_UNAVAILABLE";

/** What a form shows when its action could not reach the database (lib/actions/pipeline.ts). */
export const DATABASE_UNAVAILABLE_MESSAGE = "The portal can't reach its database right now. Nothing was saved; try again in a moment.";

export const OUTAGE_HEADING = "The portal can't reach its database";
export const OUTAGE_EXPLANATION = "EMS Portal is running, but its database isn't answering right now, so this page can't be shown. What you saved before is safe.";

/**
 * Seconds until the page tries again: soon at first (most outages are a restart), then less often
 * the longer it lasts, so that a long outage is not a storm of reloads. Also the Retry-After header.
 */
export function retryAfterSeconds(outageSeconds: number): number {
  return Math.min(30, Math.max(3, Math.ceil(outageSeconds / 5)));
}

/** For text and double-quoted attributes. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The colours and shapes of the portal's signed-out pages (app/globals.css, components/ui/button.tsx). */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a;line-height:1.5}
main{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:3rem 1rem}
.brand{display:flex;align-items:center;gap:.5rem;margin-bottom:2rem;font-size:1.125rem;font-weight:600}
.mark{display:grid;place-items:center;width:2rem;height:2rem;border-radius:.5rem;background:#4f46e5;color:#fff}
.card{width:100%;max-width:28rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:2rem;box-shadow:0 1px 2px rgb(0 0 0/.05)}
.status{display:inline-flex;align-items:center;gap:.5rem;margin:0;font-size:.875rem;font-weight:600;color:#b45309}
.dot{width:.5rem;height:.5rem;border-radius:999px;background:#f59e0b}
h1{margin:.5rem 0 0;font-size:1.25rem;font-weight:600}
p{margin:.5rem 0 0;color:#475569;font-size:.9375rem}
.retry{margin-top:1.5rem;display:flex;flex-wrap:wrap;align-items:center;gap:.75rem 1rem}
.button{display:inline-flex;align-items:center;justify-content:center;border-radius:.375rem;padding:.5rem 1rem;background:#4f46e5;color:#fff;font-size:.875rem;font-weight:500;text-decoration:none;box-shadow:0 1px 2px rgb(0 0 0/.05)}
.button:hover{background:#4338ca}
.button:focus-visible{outline:2px solid #4f46e5;outline-offset:2px}
.hint{margin:0;font-size:.875rem;color:#64748b}
`;

/**
 * The page's HTML. `retryHref` is the address asked for (path and query), so "Try again" asks for
 * exactly it; `nonce` is the one in this response's Content-Security-Policy.
 */
export function outagePageHtml({ retryHref, retrySeconds, nonce }: { retryHref: string; retrySeconds: number; nonce: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta http-equiv="refresh" content="${retrySeconds}">
<title>Database unavailable · EMS Portal</title>
<style nonce="${escapeHtml(nonce)}">${STYLE}</style>
</head>
<body>
<main id="main">
<div class="brand"><span class="mark" aria-hidden="true">E</span>EMS Portal</div>
<div class="card" data-testid="database-outage">
<p class="status"><span class="dot" aria-hidden="true"></span>503 · Service unavailable</p>
<h1>${escapeHtml(OUTAGE_HEADING)}</h1>
<p>${escapeHtml(OUTAGE_EXPLANATION)}</p>
<div class="retry">
<a class="button" href="${escapeHtml(retryHref)}">Try again</a>
<p class="hint" role="status">This page tries again by itself in ${retrySeconds} seconds.</p>
</div>
</div>
</main>
</body>
</html>
`;
}
