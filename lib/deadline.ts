/**
 * One signal for "stop now" from what a job run is given (lib/jobs/registry.ts `JobContext`): it
 * aborts when the engine stops (`signal`) or when the run's deadline passes (epoch ms; a serverless
 * function's time limit), whichever comes first. Work handed the signal (a send, a wait) then gives
 * up in time for the run to end cleanly, rather than being cut off by the platform mid-write.
 * With neither, a signal that never aborts.
 */
export function stopSignal({ signal, deadline }: { signal?: AbortSignal; deadline?: number }): AbortSignal {
  const signals = signal ? [signal] : [];
  if (deadline !== undefined) signals.push(AbortSignal.timeout(Math.max(0, deadline - Date.now())));
  if (signals.length === 0) return new AbortController().signal;
  return signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
}
