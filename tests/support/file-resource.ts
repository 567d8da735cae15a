import { afterAll, beforeAll } from "vitest";

/**
 * An object that reads through to the one `current()` returns at the moment of each read (fields,
 * methods, spreading): for what a test file declares at its top but only has once a hook has run.
 */
export function readThrough<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => {
      const target = current();
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
    has: (_, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
  });
}

/**
 * A resource of a whole test file (a server, a sandbox): started before its first test, stopped
 * after its last. Held in a const at the file's top; read inside tests and hooks only.
 */
export function fileResource<T extends object>(start: () => Promise<T>, stop: (resource: T) => Promise<void>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    if (started) await stop(started);
  });
  return readThrough(() => {
    if (!started) throw new Error("The file's resource is read before its beforeAll has started it.");
    return started;
  });
}
