/**
 * The EMS API sandbox: the contract of docs/ems-api.md over generated
 * data, with faults on demand. Plain TypeScript, no Next.js: see README.md in this folder.
 */
export { Sandbox, DEFAULT_TOKEN_LIFETIME_SECONDS } from "./sandbox";
export type { SandboxRequest, SandboxResponse } from "./core/http-types";
export type { SandboxAccountConfig, SandboxOptions } from "./core/config";
export { DEFAULT_ACCOUNTS, parseAccountsJson } from "./core/config";
export type { SandboxLogger } from "./core/log";
export { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from "./demo-credentials";
export { createNodeListener } from "./adapters/node-http";
export { handleFetchRequest } from "./adapters/web-fetch";
export { listenSandbox } from "./server";
export { basicAuthorizationHeader, encodeCredentialPart } from "./core/basic-credentials";
