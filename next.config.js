/** @type {import('next').NextConfig} */
const nextConfig = {
  // The Prisma client and argon2 are server-only Node packages; keep them out of the bundle.
  serverExternalPackages: ["@node-rs/argon2", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  // A self-contained server for Node hosts (.next/standalone/server.js, with only the files it
  // needs); `npm run build` copies the static files beside it. Vercel ignores this setting.
  output: "standalone",
  typedRoutes: false,
};

export default nextConfig;
