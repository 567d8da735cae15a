// Where `npm run dev` serves its embedded PostgreSQL (PGlite) when DATABASE_URL is unset.
export const EMBEDDED_DATABASE_PORT = Number(process.env.EMBEDDED_DATABASE_PORT || 54329);
export const EMBEDDED_DATABASE_URL = `postgresql://postgres:postgres@127.0.0.1:${EMBEDDED_DATABASE_PORT}/postgres?sslmode=disable`;
export const EMBEDDED_DATA_DIR = process.env.EMBEDDED_DATA_DIR || ".data/pglite";
