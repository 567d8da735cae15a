import fs from "node:fs";
import { LEGACY_PGLITE_DATA_DIR } from "../../lib/config/embedded-database";

/** The first version kept its embedded data in PGlite's format, which PostgreSQL cannot read. */
export function noticeLegacyPglite(): void {
  if (fs.existsSync(LEGACY_PGLITE_DATA_DIR)) {
    console.log(`[dev] ${LEGACY_PGLITE_DATA_DIR} holds data of the earlier embedded database (PGlite); it is no longer used and can be deleted.`);
  }
}
