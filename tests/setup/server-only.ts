// Stands in for the `server-only` package in tests (aliased in vitest.config.ts): the real one
// throws outside a React Server Components build, which tests are not.
export {};
