// Stops `npm run dev`, `npm test` and `npm start` at once, with one line, on a Node.js too old for the
// project (package.json's engines), instead of a crash somewhere later. Plain JavaScript with no
// syntax newer than Node 14's and no dependencies, so an old Node can run it.
// EMS_NODE_VERSION_UNDER_TEST stands in for the running version; only tests/env/require-node.test.ts sets it.
import fs from "fs";
import { fileURLToPath } from "url";

export const MINIMUM = "22.13.0";
export const RECOMMENDED_MAJOR = 24;

function parts(version) {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(String(version).trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

/** The one line to print when `version` is too old (or unreadable), else null. */
export function nodeVersionProblem(version) {
  const have = parts(version);
  const need = parts(MINIMUM);
  if (have) {
    for (let i = 0; i < 3; i++) {
      if (have[i] > need[i]) return null;
      if (have[i] < need[i]) break;
      if (i === 2) return null;
    }
  }
  const shown = String(version).replace(/^v/, "");
  return (
    `EMS Portal needs Node.js ${MINIMUM.replace(/\.0$/, "")} or later (${RECOMMENDED_MAJOR} LTS recommended); this is Node ${shown}. ` +
    `Install it with \`nvm install ${RECOMMENDED_MAJOR}\` (or \`fnm install ${RECOMMENDED_MAJOR}\`), or from https://nodejs.org.`
  );
}

const runDirectly = () => {
  try {
    return fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
};

if (process.argv[1] && runDirectly()) {
  const problem = nodeVersionProblem(process.env.EMS_NODE_VERSION_UNDER_TEST || process.versions.node);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
