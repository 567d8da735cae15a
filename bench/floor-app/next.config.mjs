// The floor of bench:pages: the least a Next.js 16 page can do for the same 20 rows the portal's
// /webhook-groups shows (one fetch to the sandbox with a bearer token, rendered as a table). Built
// and started by bench/pages.ts; it shares the repository's node_modules.
import path from "node:path";

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  turbopack: { root: path.join(import.meta.dirname, "..", "..") },
};

export default nextConfig;
