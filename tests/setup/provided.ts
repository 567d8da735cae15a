// What a database project's global setup hands to its test files (vitest `provide` / `inject`).
declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated database every test file of the project uses. */
    databaseUrl: string;
    /** Pool size of the app's Prisma client in the tests: several connections, as in production. */
    databasePoolMax: string;
  }
}
export {};
