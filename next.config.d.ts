// Types of next.config.js's exports, for tests/security/headers.test.ts and request-body.test.ts (the config is plain JavaScript).
import type { NextConfig } from "next";

export declare const SECURITY_HEADERS: { key: string; value: string }[];
export declare const STATIC_PATHS: string[];
export declare const BODY_LIMIT_BYTES: number;
export declare const PROXY_BODY_COPY_BYTES: number;
declare const nextConfig: NextConfig;
export default nextConfig;
