// bench:pages counts the portal's database round trips with a relay that reads the PostgreSQL
// protocol (bench/db-round-trips.ts): one per simple Query or per Sync of an extended query.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frontendMessageCounter, startRoundTripCounter, type RoundTripCounter } from "../../bench/db-round-trips";

let relay: RoundTripCounter;
let client: pg.Client;
beforeAll(async () => {
  // The embedded test database admits one connection at a time: this file's only one is the relay's.
  const holder = globalThis as unknown as { emsPrisma?: { $disconnect(): Promise<void> } };
  await holder.emsPrisma?.$disconnect();
  const url = new URL(process.env.DATABASE_URL!);
  relay = await startRoundTripCounter({ host: url.hostname, port: Number(url.port || 5432) });
  url.host = `127.0.0.1:${relay.port}`;
  client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await relay?.close();
});

async function roundTrips(work: () => Promise<unknown>): Promise<number> {
  const before = relay.count();
  await work();
  return relay.count() - before;
}

describe("the round-trip relay", () => {
  it("counts one per statement, simple or extended, and three for a transaction of one", async () => {
    expect(await roundTrips(() => client.query("SELECT 1"))).toBe(1);
    expect(await roundTrips(() => client.query("SELECT $1::int AS n", [7]))).toBe(1);
    expect(
      await roundTrips(async () => {
        await client.query("BEGIN");
        await client.query("SELECT $1::text AS t", ["x"]);
        await client.query("COMMIT");
      }),
    ).toBe(3);
  });

  it("follows messages split across chunks and large parameters", async () => {
    const big = "x".repeat(3 * 1024 * 1024);
    expect(await roundTrips(() => client.query("SELECT length($1::text) AS n", [big]))).toBe(1);
    const result = await client.query("SELECT $1::text AS t", ["after"]);
    expect(result.rows[0].t).toBe("after");

    let counted = 0;
    const feed = frontendMessageCounter(() => counted++);
    const startup = Buffer.alloc(8);
    startup.writeInt32BE(8, 0);
    startup.writeInt32BE(196608, 4);
    const sync = Buffer.from([0x53, 0, 0, 0, 4]);
    const query = Buffer.concat([Buffer.from([0x51]), Buffer.from([0, 0, 0, 13]), Buffer.from("SELECT 1\0")]);
    const stream = Buffer.concat([startup, query, sync, sync]);
    for (let i = 0; i < stream.length; i++) feed(stream.subarray(i, i + 1)); // one byte at a time
    expect(counted).toBe(3);
  });
});
