/**
 * The base URL rule is the contract's (lib/ems/contract.ts `checkBaseUrl`, docs/ems-api.md §1).
 * This re-export only keeps lib/actions/credentials/save-credentials.validation.ts compiling until
 * it imports from lib/ems/contract; then delete this file.
 */
export { checkBaseUrl, type BaseUrlCheck } from "@/lib/ems/contract";
