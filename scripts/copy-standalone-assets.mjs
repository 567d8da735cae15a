// After `next build` with `output: "standalone"`: the standalone server (.next/standalone/server.js)
// serves static files only from its own folder, and Next leaves copying them there to the deployer.
// It also gets scripts/standalone/json-output.cjs beside it, imported on its first line, so that with
// JSON logs even Next's own start-up banner and error output are JSON lines (the file says why).
import fs from "node:fs";

const standalone = ".next/standalone";
const JSON_OUTPUT = "json-output.cjs";
// server.js is an ES module: a static import on its first line is evaluated before anything else in it.
const IMPORT_JSON_OUTPUT = `import "./${JSON_OUTPUT}"; // EMS Portal: JSON lines only (scripts/standalone/json-output.cjs)\n`;

if (fs.existsSync(standalone)) {
  fs.cpSync(".next/static", `${standalone}/.next/static`, { recursive: true });
  if (fs.existsSync("public")) fs.cpSync("public", `${standalone}/public`, { recursive: true });
  fs.copyFileSync(`scripts/standalone/${JSON_OUTPUT}`, `${standalone}/${JSON_OUTPUT}`);
  const server = `${standalone}/server.js`;
  const source = fs.readFileSync(server, "utf8");
  if (!source.includes(IMPORT_JSON_OUTPUT)) fs.writeFileSync(server, IMPORT_JSON_OUTPUT + source);
}
