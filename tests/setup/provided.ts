// What a database project's global setup hands to its test files (vitest `provide` / `inject`).
declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated database every test file of the project uses. */
    databaseUrl: string;
    /** A shadow database URL for `prisma migrate diff`, or "" when the server can create its own. */
    shadowDatabaseUrl: string;
    /** Pool size the app code must use against it (1 on the embedded server). */
    databasePoolMax: string;
    databaseKind: "embedded" | "postgres";
  }
}
export {};
