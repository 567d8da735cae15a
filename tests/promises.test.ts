import { describe, expect, it } from "vitest";
import { untilAborted } from "@/lib/promises";

describe("untilAborted", () => {
  it("answers with the promise's value or error when nothing aborts", async () => {
    await expect(untilAborted(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
    await expect(untilAborted(Promise.reject(new Error("boom")), new AbortController().signal)).rejects.toThrow("boom");
    await expect(untilAborted(Promise.resolve("no signal"))).resolves.toBe("no signal");
  });

  it("gives up with the signal's reason as soon as it aborts, while the promise runs on", async () => {
    let finish!: (value: string) => void;
    const shared = new Promise<string>((resolve) => (finish = resolve));
    const caller = new AbortController();
    const waiting = untilAborted(shared, caller.signal);
    caller.abort(new Error("the caller left"));
    await expect(waiting).rejects.toThrow("the caller left");
    finish("still useful to the others");
    await expect(shared).resolves.toBe("still useful to the others");
  });

  it("rejects at once for a signal already aborted, with an AbortError when it has no reason", async () => {
    const caller = new AbortController();
    caller.abort();
    await expect(untilAborted(new Promise(() => {}), caller.signal)).rejects.toMatchObject({ name: "AbortError" });
  });
});
