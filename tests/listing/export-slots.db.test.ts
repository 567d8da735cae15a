// A person runs at most EXPORT_MAX_CONCURRENT exports at once, counted in
// the database so the limit holds across instances (lib/listing/export-slots.ts).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { acquireExportSlot, runningExports } from "@/lib/listing/export-slots";
import { warmPool } from "../setup/db";

const limits = { max: 2, holdSeconds: 360 };

describe("export slots", () => {
  it("gives two of five simultaneous requests a slot, across connections (the race the advisory lock closes)", async () => {
    const userId = `user-${randomUUID()}`;
    await warmPool(6);
    const slots = await Promise.all(Array.from({ length: 5 }, () => acquireExportSlot(userId, limits)));
    expect(slots.filter(Boolean)).toHaveLength(2);
    expect(await runningExports(userId)).toBe(2);
  });

  it("frees a slot when an export ends, once however often it is released", async () => {
    const userId = `user-${randomUUID()}`;
    const first = await acquireExportSlot(userId, limits);
    const second = await acquireExportSlot(userId, limits);
    expect(await acquireExportSlot(userId, limits)).toBeNull();
    await first!.release();
    await first!.release();
    const third = await acquireExportSlot(userId, limits);
    expect(third).not.toBeNull();
    expect(await acquireExportSlot(userId, limits)).toBeNull();
    await Promise.all([second!.release(), third!.release()]);
    expect(await runningExports(userId)).toBe(0);
  });

  it("counts a slot whose instance died only until it expires, and then drops it", async () => {
    const userId = `user-${randomUUID()}`;
    // Two slots an instance took and never released: one expired, one not.
    await prisma.exportSlot.createMany({
      data: [
        { id: randomUUID(), userId, expiresAt: new Date(Date.now() - 1_000) },
        { id: randomUUID(), userId, expiresAt: new Date(Date.now() + 60_000) },
      ],
    });
    expect(await runningExports(userId)).toBe(1);
    expect(await acquireExportSlot(userId, limits)).not.toBeNull();
    expect(await acquireExportSlot(userId, limits)).toBeNull();
    expect(await prisma.exportSlot.count({ where: { userId } })).toBe(2);
  });

  it("expires a slot after holdSeconds (database time)", async () => {
    const userId = `user-${randomUUID()}`;
    const slot = await acquireExportSlot(userId, { max: 1, holdSeconds: 1 });
    expect(slot).not.toBeNull();
    expect(await acquireExportSlot(userId, { max: 1, holdSeconds: 1 })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await acquireExportSlot(userId, { max: 1, holdSeconds: 1 })).not.toBeNull();
  });

  it("counts each person apart", async () => {
    const [a, b] = [`user-${randomUUID()}`, `user-${randomUUID()}`];
    for (let i = 0; i < 2; i++) expect(await acquireExportSlot(a, limits)).not.toBeNull();
    expect(await acquireExportSlot(a, limits)).toBeNull();
    expect(await acquireExportSlot(b, limits)).not.toBeNull();
  });
});
