import { afterEach } from "vitest";

/**
 * Variables a test file sets for one test (a cap lowered to reach it quickly), put back as they were
 * after each test. lib/env.ts reads process.env at each call, so a change applies at once.
 * Call at a file's top level.
 */
export function restoreEnvAfterEach(names: readonly string[]): void {
  const before = new Map(names.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}
