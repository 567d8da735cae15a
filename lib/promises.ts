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
