import { checkDatabase } from "@/lib/db/health";

export const dynamic = "force-dynamic";

/** For load balancers: 200 when this instance can reach its database, 503 when it cannot. */
export async function GET() {
  const databaseReachable = await checkDatabase();
  return Response.json(
    { status: databaseReachable ? "ok" : "unavailable", database: databaseReachable ? "reachable" : "unreachable" },
    { status: databaseReachable ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
