import fs from "node:fs";
import path from "node:path";
import { parse } from "dotenv";

/**
 * Loads `.env.local` then `.env` into process.env for scripts that run outside Next.js
 * (Next loads them itself). Variables already set win, as they do in Next.
 */
export function loadEnvFiles(dir = process.cwd()): void {
  for (const name of [".env.local", ".env"]) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) continue;
    const parsed = parse(fs.readFileSync(file));
    for (const [key, value] of Object.entries(parsed)) {
      if (process.env[key] === undefined) process.env[key] = value;
    }
  }
}
