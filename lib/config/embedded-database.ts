// Where `npm run dev` serves its embedded PostgreSQL (PGlite) when DATABASE_URL is unset.
// Read these after the env files are loaded (import dynamically, or call the function), so that
// EMBEDDED_DATABASE_PORT / EMBEDDED_DATA_DIR set in .env.local count.
export function embeddedDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const port = Number(env.EMBEDDED_DATABASE_PORT || 54329);
  return `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
}

export const EMBEDDED_DATABASE_PORT = Number(process.env.EMBEDDED_DATABASE_PORT || 54329);
export const EMBEDDED_DATABASE_URL = embeddedDatabaseUrl();
export const EMBEDDED_DATA_DIR = process.env.EMBEDDED_DATA_DIR || ".data/pglite";
