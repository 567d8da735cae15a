import { afterAll, describe, expect, it } from "vitest";
import { checkDatabase } from "@/lib/db/health";

type Holder = { emsPrisma?: { $disconnect(): Promise<void> } };
const holder = globalThis as unknown as Holder;

describe("checkDatabase", () => {
  it("is true when the database answers", async () => {
    expect(await checkDatabase()).toBe(true);
  });

  describe("with an unreachable database", () => {
    const saved = process.env.DATABASE_URL;
    afterAll(async () => {
      await holder.emsPrisma?.$disconnect();
      holder.emsPrisma = undefined;
      process.env.DATABASE_URL = saved;
    });

    it("is false, within its timeout, and does not throw", async () => {
      await holder.emsPrisma?.$disconnect();
      holder.emsPrisma = undefined;
      process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/none?sslmode=disable";
      const started = Date.now();
      expect(await checkDatabase(1_500)).toBe(false);
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  });
});
