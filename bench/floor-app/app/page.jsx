// One fetch to the sandbox with a bearer token, the rows in a table: nothing else. Settings come
// from bench/pages.ts: FLOOR_SANDBOX_URL, FLOOR_BASIC_AUTHORIZATION (the token request's header) and
// FLOOR_QUERY (the query string the portal sends for /webhook-groups).
export const dynamic = "force-dynamic";

let token = null;

async function bearerToken(renew) {
  if (!renew && token && token.expiresAt - Date.now() > 60_000) return token.value;
  const response = await fetch(`${process.env.FLOOR_SANDBOX_URL}/api/v1/oauth2/token`, {
    method: "POST",
    headers: { authorization: process.env.FLOOR_BASIC_AUTHORIZATION, "content-type": "application/x-www-form-urlencoded;charset=UTF-8" },
    body: "grant_type=client_credentials",
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`token request answered ${response.status}`);
  const body = await response.json();
  // expires_at is `YYYY-MM-DD HH:MM:SS` in UTC.
  const expiresAt = Date.parse(`${String(body.expires_at).replace(" ", "T")}Z`);
  token = { value: body.access_token, expiresAt: Number.isNaN(expiresAt) ? Date.now() + 10 * 60_000 : expiresAt };
  return token.value;
}

async function webhookGroups() {
  const url = `${process.env.FLOOR_SANDBOX_URL}/api/v1/webhook-groups?${process.env.FLOOR_QUERY ?? ""}`;
  for (const renew of [false, true]) {
    const response = await fetch(url, { headers: { authorization: `Bearer ${await bearerToken(renew)}` }, cache: "no-store" });
    if (response.status === 401 && !renew) continue;
    if (!response.ok) throw new Error(`listing answered ${response.status}`);
    return (await response.json()).items;
  }
  throw new Error("unreachable");
}

const text = (value) => (value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value));

export default async function FloorPage() {
  const rows = await webhookGroups();
  const columns = rows.length > 0 ? Object.keys(rows[0]) : [];
  return (
    <main>
      <h1>Webhook groups</h1>
      <table data-testid="floor-table">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column}>{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={text(row.id)}>
              {columns.map((column) => (
                <td key={column}>{text(row[column])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
