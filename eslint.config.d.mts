// Types of eslint.config.mjs's exports, for tests/lint/house-rules.test.ts (the config is plain JavaScript).
import type { Linter } from "eslint";

export declare const OUTBOUND_DOOR: string;
export declare const OUTBOUND_EXCEPTIONS: { sandbox: string; mail: string; httpServer: string };
/** [module path without extension, what it is] */
export declare const DATA_ACCESS_MODULES: [string, string][];
declare const config: Linter.Config[];
export default config;
