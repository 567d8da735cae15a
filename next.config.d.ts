// Types of next.config.js's exports, for tests/security/headers.test.ts (the config is plain JavaScript).
import type { NextConfig } from "next";

export declare const SECURITY_HEADERS: { key: string; value: string }[];
export declare const STATIC_PATHS: string[];
declare const nextConfig: NextConfig;
export default nextConfig;
