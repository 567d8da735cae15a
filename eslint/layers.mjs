// lib/ as layers: each folder (or top-level file) of lib/ belongs to one layer and imports only from
// its own layer and the layers below it; a feature uses only the features it names here, so no folder
// of lib/ is ever in an import cycle. docs/ARCHITECTURE.md ("Layers") says what each layer is for.
// `npm run lint` refuses an import against this map (import/no-restricted-paths), and import/no-cycle
// refuses a cycle of files.

/** Lowest first. A folder is `lib/<name>/`, a file `lib/<name>.ts`. */
export const LAYERS = [
  {
    name: "kernel",
    why: "configuration, logging, telemetry, errors, database, crypto and the other ideas every part shares",
    folders: ["config", "db", "crypto", "security", "forms", "text", "http", "sandbox", "generated", "telemetry", "time"],
    files: ["env", "log", "errors", "duration", "deadline", "csv", "promises", "page-search-params", "portal-origin", "startup", "admission"],
  },
  {
    name: "outbound",
    why: "what connects out, all through the one door (lib/ems/outbound.ts): the EMS API client and the mail sender",
    folders: ["ems", "mail"],
    files: [],
  },
  { name: "access", why: "the acting person, roles and guards; audit's write side", folders: ["access", "audit"], files: [] },
  { name: "ems-access", why: "reading the EMS as the signed-in person", folders: ["ems-access"], files: [] },
  { name: "setup", why: "an account's webhook setup as data: its model, triggers and required triggers", folders: ["setup"], files: [] },
  {
    name: "features",
    why: "one folder per capability",
    folders: [
      "listing",
      "views",
      "listing-page",
      "coverage",
      "health",
      "alerts",
      "history",
      "teams",
      "auth",
      "onboarding",
      "palette",
      "credentials",
      "audit-log",
      "retention",
      "webhooks",
      "plans",
      "inbox",
    ],
    files: [],
  },
  { name: "top", why: "what runs the features: key rotation, jobs, server actions", folders: ["rotation", "jobs", "actions"], files: [] },
];

/** The other features a feature may import (a DAG: a cycle here would be a folder cycle). */
export const FEATURE_USES = {
  views: ["listing"],
  "listing-page": ["listing", "views", "history", "health"],
  webhooks: ["listing", "health", "history", "coverage"],
  palette: ["auth", "listing", "views", "history"],
  history: ["alerts", "health"],
  "audit-log": ["health", "listing"],
  auth: ["teams"],
  teams: ["credentials"],
  credentials: ["history"],
  retention: ["auth"],
  plans: ["health", "coverage", "history", "alerts", "listing", "inbox"],
  inbox: ["alerts"],
};

const pathsOf = (layer) => [...layer.folders.map((folder) => `./lib/${folder}`), ...layer.files.map((file) => `./lib/${file}.ts`)];

/** import/no-restricted-paths zones: for every folder and file of lib/, what it may not import. */
export function layerZones() {
  const zones = [];
  LAYERS.forEach((layer, index) => {
    const above = LAYERS.slice(index + 1).flatMap(pathsOf);
    for (const target of pathsOf(layer)) {
      if (above.length > 0) {
        zones.push({
          target,
          from: above,
          message: `lib/ layers: the ${layer.name} layer may not import from a layer above it (${LAYERS.slice(index + 1)
            .map((l) => l.name)
            .join(", ")}). docs/ARCHITECTURE.md "Layers".`,
        });
      }
    }
    if (layer.name === "features") {
      for (const feature of layer.folders) {
        const allowed = new Set([feature, ...(FEATURE_USES[feature] ?? [])]);
        const others = layer.folders.filter((other) => !allowed.has(other)).map((other) => `./lib/${other}`);
        if (others.length > 0) {
          zones.push({
            target: `./lib/${feature}`,
            from: others,
            message: `lib/ layers: the ${feature} feature may use only ${[...allowed].filter((f) => f !== feature).join(", ") || "no other feature"} (FEATURE_USES in eslint/layers.mjs; a new use must not make a cycle).`,
          });
        }
      }
    }
  });
  return zones;
}
