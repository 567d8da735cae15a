import "server-only";
import { jobsEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { bearerTokenMatches } from "@/lib/security/bearer-token";
import { runObserved } from "./observed-run";
import { jobNamed } from "./registry";

/**
 * A Vercel cron route for one registered job: Vercel Cron calls it with
 * `Authorization: Bearer $CRON_SECRET` on the schedule in vercel.json, and it runs the job's own
 * `run` function, the one the job engine runs on Node hosts.
 *
 * - CRON_SECRET unset: 503, and the job does not run (a route that anyone could trigger is no
 *   cron route; set the secret, or use the job engine).
 * - No or another bearer token: 401. Compared in constant time (lib/security/bearer-token.ts).
 * - Right token: 200 with what the job did; 500 if it failed (logged).
 */
const NO_STORE = { "Cache-Control": "no-store" };

export function cronRefusal(authorization: string | null, secret: string | undefined): Response | null {
  if (!secret) return Response.json({ error: "CRON_SECRET is not set on this deployment." }, { status: 503, headers: NO_STORE });
  if (!bearerTokenMatches(authorization, secret)) {
    return Response.json({ error: "Unauthorized." }, { status: 401, headers: { ...NO_STORE, "WWW-Authenticate": 'Bearer realm="cron"' } });
  }
  return null;
}

/** The GET handler of app/api/cron/<job>/route.ts. `maxSeconds`: the function's time limit. */
export function cronRouteFor(jobName: string, { maxSeconds }: { maxSeconds: number }) {
  return async function GET(request: Request): Promise<Response> {
    const refused = cronRefusal(request.headers.get("authorization"), jobsEnv().CRON_SECRET);
    if (refused) return refused;
    const job = jobNamed(jobName);
    // Leave a margin of the function's limit to answer; the next call goes on where this one stopped.
    const deadline = Date.now() + Math.max(1, maxSeconds - 10) * 1000;
    try {
      const result = await runObserved(job, { signal: request.signal, deadline, trigger: "cron" }, undefined);
      return Response.json({ job: job.name, result }, { headers: NO_STORE });
    } catch (error) {
      log.error({ event: "jobs.cron_failed", job: job.name, err: error }, "cron job failed");
      return Response.json({ job: job.name, error: "The job failed; see the server log." }, { status: 500, headers: NO_STORE });
    }
  };
}
