// After `next build` with `output: "standalone"`: the standalone server (.next/standalone/server.js)
// serves static files only from its own folder, and Next leaves copying them there to the deployer.
import fs from "node:fs";

const standalone = ".next/standalone";
if (fs.existsSync(standalone)) {
  fs.cpSync(".next/static", `${standalone}/.next/static`, { recursive: true });
  if (fs.existsSync("public")) fs.cpSync("public", `${standalone}/public`, { recursive: true });
}
