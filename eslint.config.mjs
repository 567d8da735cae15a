import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { layerZones } from "./eslint/layers.mjs";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "bench/floor-app/.next/**", "lib/generated/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    // lib/ reads as layers (eslint/layers.mjs, docs/ARCHITECTURE.md "Layers").
    files: ["lib/**/*.{ts,tsx}"],
    settings: { "import/resolver": { typescript: { project: "./tsconfig.json" } } },
    rules: {
      "import/no-restricted-paths": ["error", { zones: layerZones() }],
      "import/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
];

export default config;
