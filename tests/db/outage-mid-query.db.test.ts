// The database lost WHILE a query runs, as the app's own Prisma client (lib/db/prisma.ts) reports
// it: each way a connection dies under a query must count as an outage (lib/db/outage.ts's
// asDatabaseUnavailable), or the page whose query it was answers 500 instead of the outage page.
// Real PostgreSQL, reached through a TCP proxy this file cuts (tests/support/tcp-proxy.ts), and
// pg_terminate_backend from a second connection.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { prisma } from "@/lib/db/prisma";
import { asDatabaseUnavailable, DatabaseUnavailableError, noteDatabaseAnswered } from "@/lib/db/outage";
import { startTcpProxy, type TcpProxy } from "@/tests/support/tcp-proxy";
import "../setup/provided";

type Holder = { emsPrisma?: { $disconnect(): Promise<void> } };
const holder = globalThis as unknown as Holder;
const savedUrl = process.env.DATABASE_URL;
let proxy: TcpProxy;

async function useDatabase(url: string | undefined) {
  await holder.emsPrisma?.$disconnect().catch((error: unknown) => console.warn("disconnect after a cut:", error));
  holder.emsPrisma = undefined;
  process.env.DATABASE_URL = url;
}

beforeAll(async () => {
  const target = new URL(inject("databaseUrl"));
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
});
afterEach(async () => {
  proxy.restore();
  await useDatabase(savedUrl);
  noteDatabaseAnswered();
});
afterAll(async () => {
  await proxy.close();
});

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => expect.unreachable("the query should have failed"),
    (error: unknown) => error,
  );
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Ends the backends running `marker`'s query, as an operator or a failover does (57P01). */
async function terminateBackendsRunning(marker: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject("databaseUrl") });
  await admin.connect();
  try {
    const running = async () =>
      (await admin.query(`SELECT pid FROM pg_stat_activity WHERE query LIKE $1 AND state = 'active' AND pid <> pg_backend_pid()`, [`%${marker}%`])).rowCount ?? 0;
    await until(async () => (await running()) > 0, `a backend running ${marker}`);
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()`, [`%${marker}%`]);
  } finally {
    await admin.end();
  }
}

describe("a connection lost while its query runs", () => {
  it("is an outage when the host vanishes under the query (the socket reset: Connection terminated unexpectedly)", async () => {
    await useDatabase(proxy.urlFor(inject("databaseUrl")));
    await prisma.$queryRaw`SELECT 1`; // the pool has a connection open
    proxy.hold();
    const query = failureOf(prisma.user.findMany({ take: 1 }));
    await until(() => proxy.held() > 0, "the query to reach the proxy");
    proxy.cut();
    const error = await query;
    expect(asDatabaseUnavailable(error), String(error)).toBeInstanceOf(DatabaseUnavailableError);
  });

  it("is an outage when the server ends the session under a query (57P01, terminating connection due to administrator command)", async () => {
    await useDatabase(inject("databaseUrl"));
    const marker = `mid_query_${Date.now()}`;
    const query = failureOf(prisma.$queryRawUnsafe(`SELECT pg_sleep(10) AS ${marker}`));
    await terminateBackendsRunning(marker);
    const error = await query;
    expect(asDatabaseUnavailable(error), String(error)).toBeInstanceOf(DatabaseUnavailableError);
  });

  it("is an outage inside an interactive transaction too", async () => {
    await useDatabase(inject("databaseUrl"));
    const marker = `mid_transaction_${Date.now()}`;
    const transaction = failureOf(prisma.$transaction(async (tx) => tx.$queryRawUnsafe(`SELECT pg_sleep(10) AS ${marker}`), { timeout: 20_000 }));
    await terminateBackendsRunning(marker);
    const error = await transaction;
    expect(asDatabaseUnavailable(error), String(error)).toBeInstanceOf(DatabaseUnavailableError);
  });

  it("is recognised in each form a driver or Prisma reports it, and nothing else is", () => {
    const outages: unknown[] = [
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
      new Error("Connection terminated unexpectedly"),
      new Error("Invalid `prisma.user.findMany()` invocation:\n\nConnection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      Object.assign(new Error("terminating connection due to unexpected postmaster exit"), { code: "57P02" }),
      Object.assign(new Error("the database system is starting up"), { code: "57P03" }),
      Object.assign(new Error("connection failure"), { code: "08006" }),
      Object.assign(new Error("Can't reach database server"), { code: "P1001" }),
      Object.assign(new Error("Server has closed the connection."), { code: "P1017" }),
      Object.assign(new Error("Timed out fetching a new connection from the connection pool."), { code: "P2024" }),
      { kind: "postgres", code: "57P01" },
      { meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } } },
    ];
    for (const error of outages) expect(asDatabaseUnavailable(error), JSON.stringify(String((error as Error).message ?? error))).toBeInstanceOf(DatabaseUnavailableError);
    const others: unknown[] = [
      Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505" }),
      Object.assign(new Error("Unique constraint failed"), { code: "P2002" }),
      new Error("The connection to the EMS was terminated"),
      new TypeError("Cannot read properties of undefined"),
    ];
    for (const error of others) expect(asDatabaseUnavailable(error), String(error)).toBeNull();
  });

  it("is no outage when the query itself is wrong", async () => {
    await useDatabase(inject("databaseUrl"));
    const error = await failureOf(prisma.$queryRawUnsafe(`SELECT * FROM no_such_table_here`));
    expect(asDatabaseUnavailable(error)).toBeNull();
  });
});
