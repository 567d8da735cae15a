/**
 * Started now to run beside other work, awaited later by code that handles its failure: without a
 * handler until then, a rejection that comes before the await would be reported by Node as
 * unhandled (and may end the process). The error is not dropped: whoever awaits the promise gets it.
 * Returns the same promise.
 */
export function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.then(undefined, leftToTheAwaiter);
  return promise;
}

function leftToTheAwaiter(): void {}

/**
 * Waits for a promise, but lets this caller give up when its signal aborts, rejecting with the
 * signal's reason. The promise itself runs on: it may be shared by other callers (a single flight,
 * a token refresh) or not cancellable at all (a DNS lookup).
 */
export function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Why a signal aborted: its reason, or an AbortError when it was given none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}
