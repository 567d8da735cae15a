import { describe, expect, it } from "vitest";
import { runObserved } from "@/lib/jobs/observed-run";
import type { JobDefinition } from "@/lib/jobs/registry";
import { metrics } from "@/lib/telemetry/metrics";

// Job runs as the engine and the cron routes run them (lib/jobs/observed-run.ts): counted by job and
// result, timed, and their result or error passed through unchanged.
const job = (name: string, run: JobDefinition["run"]): JobDefinition => ({ name, expireInSeconds: 60, retryLimit: 0, run });

async function count(name: string, result: "ok" | "failed"): Promise<number> {
  const counter = await metrics().jobRuns.get();
  return counter.values.find((value) => value.labels.job === name && value.labels.result === result)?.value ?? 0;
}

describe("runObserved", () => {
  it("counts a run that succeeds, and hands back its result", async () => {
    const context = { signal: new AbortController().signal, trigger: "engine" as const };
    expect(
      await runObserved(
        job("observed-ok", async () => ({ deleted: 3 })),
        context,
        undefined,
      ),
    ).toEqual({ deleted: 3 });
    expect(await count("observed-ok", "ok")).toBe(1);
    expect(await count("observed-ok", "failed")).toBe(0);
    const durations = await metrics().jobDuration.get();
    expect(
      durations.values.find((value) => value.metricName === "job_duration_seconds_count" && value.labels.job === "observed-ok" && value.labels.result === "ok")?.value,
    ).toBe(1);
  });

  it("counts a run that fails as failed, and throws its error on", async () => {
    const failure = new Error("database gone");
    const context = { signal: new AbortController().signal, trigger: "cron" as const };
    await expect(
      runObserved(
        job("observed-failing", async () => Promise.reject(failure)),
        context,
        undefined,
      ),
    ).rejects.toBe(failure);
    expect(await count("observed-failing", "failed")).toBe(1);
    expect(await count("observed-failing", "ok")).toBe(0);
  });
});
