import { vi } from "vitest";

/**
 * Captures everything written through console.* and process.stdout/stderr while `run` runs, so a
 * test can check that no secret ever reaches the logs.
 */
export async function captureOutput<T>(run: () => Promise<T>): Promise<{ result: T | undefined; error: unknown; output: string; lines: string[] }> {
  const chunks: string[] = [];
  const record = (...args: unknown[]) => {
    chunks.push(args.map((arg) => (typeof arg === "string" ? arg : arg instanceof Uint8Array ? Buffer.from(arg).toString() : JSON.stringify(arg))).join(" ") + "\n");
  };
  const spies = [
    vi.spyOn(console, "log").mockImplementation(record),
    vi.spyOn(console, "info").mockImplementation(record),
    vi.spyOn(console, "warn").mockImplementation(record),
    vi.spyOn(console, "error").mockImplementation(record),
    vi.spyOn(console, "debug").mockImplementation(record),
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => (record(chunk), true)),
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (record(chunk), true)),
  ];
  let result: T | undefined;
  let error: unknown;
  try {
    result = await run();
  } catch (caught) {
    error = caught;
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  const output = chunks.join("");
  return { result, error, output, lines: output.split("\n").filter((line) => line.trim() !== "") };
}
