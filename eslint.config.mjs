import path from "node:path";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { layerZones } from "./eslint/layers.mjs";

// House rules (docs/ARCHITECTURE.md), checked here rather than by regex scans of the source, which
// pass as soon as the code changes shape. Note that ESLint keeps one setting per rule and file: a
// later block that sets `no-restricted-imports` or `no-restricted-syntax` for a file replaces an
// earlier one, so each block below spreads in every restriction its files must keep.

// ---- The one outbound door ---------------------------------------------------------------------
// Every connection the portal's server code opens goes through lib/ems/outbound.ts, where the
// destination policy is enforced (docs/SECURITY.md). lib/sandbox is the sandbox itself (a server, and
// a test client for its admin endpoint); lib/mail sends mail through nodemailer; scripts/, tests/,
// e2e/, bench/ and prisma/ are not the portal and talk to their own servers.
export const OUTBOUND_DOOR = "lib/ems/outbound.ts";
/** Where else connections may be opened: see above (tests/lint/house-rules.test.ts checks they exist). */
export const OUTBOUND_EXCEPTIONS = {
  sandbox: "lib/sandbox",
  mail: "lib/mail/send.ts",
  httpServer: "lib/auth/forwarded-for.ts",
  httpServerResponses: "lib/http/outage-response.ts",
  httpServerClose: "lib/http/graceful-close.ts",
};
const ONLY_THE_DOOR = `only ${OUTBOUND_DOOR} opens connections (the destination policy lives there).`;
const CONNECTING_MODULES = ["http", "https", "http2", "tls", "dgram", "undici"];
const outboundImportPaths = ({ allowNodemailer = false, allowHttpServer = false } = {}) => [
  ...CONNECTING_MODULES.filter((name) => !(allowHttpServer && (name === "http" || name === "https"))).flatMap((name) =>
    [name, `node:${name}`].map((source) => ({ name: source, allowTypeImports: true, message: `${source} connects: ${ONLY_THE_DOOR}` })),
  ),
  // node:net's address helpers are pure functions; its sockets are the door's.
  ...["net", "node:net"].map((source) => ({ name: source, allowImportNames: ["isIP", "isIPv4", "isIPv6"], message: `${source} sockets connect: ${ONLY_THE_DOOR}` })),
  ...(allowNodemailer ? [] : [{ name: "nodemailer", message: "Mail goes out through lib/mail alone." }]),
];
const CONNECTING_SOURCE = `/^(node:)?(${[...CONNECTING_MODULES, "net"].join("|")})$|^nodemailer$/`;
const outboundSyntax = [
  {
    // A browser's same-origin fetch("/…") reaches only the portal; anything else is a connection.
    selector: String.raw`CallExpression[callee.name="fetch"]:not([arguments.0.value=/^\x2F/]):not([arguments.0.quasis.0.value.raw=/^\x2F/])`,
    message: `fetch() of anything but a same-origin path ("/…"): ${ONLY_THE_DOOR}`,
  },
  {
    selector: `CallExpression[callee.property.name="fetch"][callee.object.name=/^(globalThis|window|self|global)$/]`,
    message: `fetch(): ${ONLY_THE_DOOR}`,
  },
  { selector: `ImportExpression[source.value=${CONNECTING_SOURCE}]`, message: `This module connects: ${ONLY_THE_DOOR}` },
  { selector: `CallExpression[callee.name="require"][arguments.0.value=${CONNECTING_SOURCE}]`, message: `This module connects: ${ONLY_THE_DOOR}` },
];
// ---- No silent catch ---------------------------------------------------------------------------
// `.catch(() => …)` drops the error without a look: a key rotation once paused change history as
// "removed their API credentials" that way (issue 25). A catch names the error it handles, or logs it.
const silentCatchSyntax = [
  {
    selector: `CallExpression[callee.property.name="catch"] > ArrowFunctionExpression:matches([params.length=0], [params.0.name=/^_/])`,
    message: "A catch that takes no error cannot tell one failure from another: handle a named error, or log what was caught.",
  },
];

// lib/auth/forwarded-for.ts, lib/http/outage-response.ts and lib/http/graceful-close.ts import
// node:http for the portal's own server (the first appends each incoming connection's address to
// X-Forwarded-For, the second answers a page the database's going failed with the outage page, the
// third lets a stopping server close its kept-alive connections), never to connect anywhere.
const httpServerOnlySyntax = [
  {
    selector: `MemberExpression[object.name=/^https?$/][property.name=/^(request|get|Agent|globalAgent)$/]`,
    message: `node:http here is for the portal's own server only: ${ONLY_THE_DOOR}`,
  },
];

// ---- Pages fetch, components render ------------------------------------------------------------
// A page (server component) calls its data function and hands components plain data, or a promise of
// plain data its data function created. Types are fine. Matches relative paths as well as `@/`.
export const DATA_ACCESS_MODULES = [
  ["lib/ems", "the EMS client"],
  ["lib/db", "the database"],
  ["lib/credentials/store", "the credential store"],
  ["lib/listing/load", "loadListing"],
  ["lib/ems-access", "reading the EMS as the person"],
];
const dataAccessImportPatterns = DATA_ACCESS_MODULES.map(([module, what]) => ({
  // lib/ems/contract and lib/ems/config are the contract and its constants, shared with the browser.
  regex: String.raw`^(@/|(\.\./)+)${module}(/(?!contract$|config$).*)?$`,
  allowTypeImports: true,
  message: `Components render: ${what} is for data functions in lib/, which a page calls and hands its components plain data.`,
}));

// ---- Button classes ----------------------------------------------------------------------------
// A button's size and colour come from buttonClasses alone. Tailwind orders its utilities in the
// stylesheet by property and value, not by their order in `class`, so `buttonClasses("secondary",
// { className: "px-2" })` loses to the built-in `px-4` without a word. `className` is for layout
// (width, margins, flex children). These are the groups a button's own classes set
// (tests/ui/utility-clashes.ts); prefixed ones (`sm:`, `hover:`) are how responsive styles are written.
const COLOUR = String.raw`(white|black|transparent|current|[a-z]+-\d{2,3})`;
const BUTTON_OWN_UTILITY = [
  String.raw`p[xy]?-\S+`,
  String.raw`text-(xs|sm|base|lg|\d?xl)`,
  `text-${COLOUR}`,
  "font-(thin|light|normal|medium|semibold|bold|extrabold)",
  `bg-${COLOUR}`,
  `border-${COLOUR}`,
  "shadow(-[a-z]+)?",
  "rounded(-[a-z0-9]+)?",
  "(block|inline-block|inline|flex|inline-flex|grid|inline-grid|hidden|contents|table)",
].join("|");
// A whole class: after the start or a space, before the end, a space or an opacity ("/60": \x2F,
// since a selector's regex cannot hold a slash).
const BUTTON_OWN_CLASS = String.raw`/(^|\s)(${BUTTON_OWN_UTILITY})(?=$|\s|\x2F)/`;
const BUTTON_CLASS_MESSAGE = "A button's size and colour come from buttonClasses/Button's variant and size (an override here would not win): className is for layout.";
const buttonSyntax = ["Literal[value", "TemplateElement[value.raw"].flatMap((node) => [
  { selector: `CallExpression[callee.name="buttonClasses"] Property[key.name="className"] ${node}=${BUTTON_OWN_CLASS}]`, message: BUTTON_CLASS_MESSAGE },
  { selector: `JSXOpeningElement[name.name="Button"] > JSXAttribute[name.name="className"] ${node}=${BUTTON_OWN_CLASS}]`, message: BUTTON_CLASS_MESSAGE },
]);

// ---- app/ holds routes -------------------------------------------------------------------------
// Components live in components/<page>/, data functions in lib/: a code file under app/ is one of
// Next.js's route files. (No stock rule sees a file's name, hence this small local plugin. Non-code
// files such as globals.css and icon.svg are not linted.)
const ROUTE_FILE =
  /^(page|layout|template|loading|error|global-error|not-found|global-not-found|forbidden|unauthorized|default|route|opengraph-image|twitter-image|icon|apple-icon|sitemap|robots|manifest)\.(js|jsx|ts|tsx)$/;
const house = {
  rules: {
    "route-files-only": {
      meta: {
        type: "problem",
        schema: [],
        messages: { notRoute: "{{name}} is not a Next.js route file: app/ holds routes only; put components in components/<page>/ and data functions in lib/." },
      },
      create: (context) => ({
        Program(node) {
          const name = path.basename(context.filename);
          if (!ROUTE_FILE.test(name)) context.report({ node, messageId: "notRoute", data: { name } });
        },
      }),
    },
  },
};

const SERVER_CODE = ["lib/**", "app/**", "components/**", "proxy.ts", "instrumentation.ts"];

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
  {
    files: SERVER_CODE,
    ignores: [OUTBOUND_DOOR, `${OUTBOUND_EXCEPTIONS.sandbox}/**`],
    rules: {
      "no-restricted-imports": ["error", { paths: outboundImportPaths() }],
      "no-restricted-syntax": ["error", ...outboundSyntax, ...silentCatchSyntax],
    },
  },
  { files: [OUTBOUND_EXCEPTIONS.mail], rules: { "no-restricted-imports": ["error", { paths: outboundImportPaths({ allowNodemailer: true }) }] } },
  {
    files: [OUTBOUND_EXCEPTIONS.httpServer, OUTBOUND_EXCEPTIONS.httpServerResponses, OUTBOUND_EXCEPTIONS.httpServerClose],
    rules: {
      "no-restricted-imports": ["error", { paths: outboundImportPaths({ allowHttpServer: true }) }],
      "no-restricted-syntax": ["error", ...outboundSyntax, ...httpServerOnlySyntax, ...silentCatchSyntax],
    },
  },
  { files: ["app/**", "components/**"], rules: { "no-restricted-syntax": ["error", ...outboundSyntax, ...buttonSyntax, ...silentCatchSyntax] } },
  { files: ["components/**"], rules: { "no-restricted-imports": ["error", { paths: outboundImportPaths(), patterns: dataAccessImportPatterns }] } },
  { files: ["app/**"], plugins: { house }, rules: { "house/route-files-only": "error" } },
];

export default config;
