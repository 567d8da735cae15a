/** @type {import('next').NextConfig} */
const nextConfig = {
  // The Prisma client and argon2 are server-only Node packages; keep them out of the bundle.
  serverExternalPackages: ["@node-rs/argon2", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
