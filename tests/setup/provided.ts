// What a database project's global setup hands to its test files (vitest `provide` / `inject`).
declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated database every test file of the project uses. */
    databaseUrl: string;
    /** A shadow database URL for `prisma migrate diff`, or "" when the server can create its own. */
    shadowDatabaseUrl: string;
    /** Pool size of the app's Prisma client in the tests: several connections, as in production. */
    databasePoolMax: string;
    databaseKind: "embedded" | "postgres";
  }
}
export {};
