// Stand-in for Prisma's native `schema-engine` binary (see README.md in this folder).
//
// The Prisma CLI spawns the binary named by PRISMA_SCHEMA_ENGINE_BINARY and talks JSON-RPC 2.0 to it,
// one JSON object a line on stdin/stdout. This program answers that protocol and hands every method
// to @prisma/schema-engine-wasm (the same engine compiled to WebAssembly), which reaches PostgreSQL
// through @prisma/adapter-pg. Everything below that is not plain plumbing bridges a difference between
// the wasm engine and the adapter; each such place is marked "Mismatch N" (numbers as in the README).
//
// Plain Node ESM with no build step: it runs before anything of the app is compiled.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { createRequire } from "node:module";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from "@prisma/driver-adapter-utils";

const require = createRequire(import.meta.url);
const PG_CHAR_OID = 18; // PostgreSQL's internal one-byte `"char"` type, used all over pg_catalog
const ENGINE_ERROR_CODE = 4466; // the JSON-RPC error code the native engine uses for every engine error

// ---------------------------------------------------------------------------------------------
// Command line: [--datamodels PATH]... [--datasource JSON] [--enabled-preview-features LIST]
//               [--extension-types JSON] [--version | cli can-connect-to-database | cli create-database]
function parseArgs(argv) {
  const args = { datamodels: [], datasource: null, command: null, version: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--version" || arg === "-V") args.version = true;
    else if (arg === "--datamodels") args.datamodels.push(argv[++i]);
    else if (arg === "--datasource") args.datasource = JSON.parse(argv[++i]);
    else if (arg === "--enabled-preview-features" || arg === "--extension-types") i++;
    else if (arg === "cli") args.command = argv[++i];
  }
  return args;
}

// The package's exports hide package.json, and its entry imports a .wasm file (below: why not that
// entry), so files of @prisma/schema-engine-wasm are found next to its resolved main module.
const wasmPackageDir = path.dirname(require.resolve("@prisma/schema-engine-wasm"));

function engineVersionHash() {
  const { version } = JSON.parse(fs.readFileSync(path.join(wasmPackageDir, "package.json"), "utf8"));
  return version.slice(version.lastIndexOf(".") + 1);
}

// ---------------------------------------------------------------------------------------------
// Connection settings.
// Mismatch 3: the pg factory gets discrete fields, never `connectionString` (pg lets a connection
// string override `database`, which would point a shadow database's pool back at the main one), and
// Prisma's `?schema=` becomes the session's search_path plus the adapter's schema name.
function connectionSettings(url) {
  const parsed = new URL(url);
  const params = parsed.searchParams;
  const schema = params.get("schema") || "public";
  const sslmode = params.get("sslmode") || "prefer";
  const config = {
    host: params.get("host") || decodeURIComponent(parsed.hostname) || "localhost",
    port: Number(parsed.port || params.get("port") || 5432),
    user: decodeURIComponent(parsed.username) || process.env.PGUSER || "postgres",
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "postgres",
    // One connection, as the native engine uses; the embedded server needs exactly that.
    max: 1,
    connectionTimeoutMillis: Number(params.get("connect_timeout") || 0) * 1000 || 30_000,
  };
  if (sslmode === "require" || sslmode === "verify-ca" || sslmode === "verify-full") {
    config.ssl = sslmode === "require" ? { rejectUnauthorized: false } : true;
  }
  if (schema !== "public") config.options = `-c search_path="${schema.replace(/"/g, '""')}"`;
  return { config, schema };
}

const quoteIdent = (name) => `"${String(name).replace(/"/g, '""')}"`;

// Mismatches 1 and 2: adapter-pg refuses columns of type `"char"` (OID 18), which the engine's catalog
// queries return. They are decoded as strings and reported as Character: on PostgreSQL 18 (the embedded server)
// the engine reads `constraint_type 'n'` with a char getter and panics if it arrives as Text.
function acceptCharColumns(queryable) {
  const queryRaw = queryable.queryRaw;
  const performIO = queryable.performIO;
  queryable.queryRaw = async function (query) {
    const result = await performIO.call(this, query);
    const charColumns = [];
    result.fields.forEach((field, index) => {
      if (field.dataTypeID === PG_CHAR_OID) {
        charColumns.push(index);
        field.dataTypeID = pg.types.builtins.TEXT;
      }
    });
    // Let adapter-pg do the rest of its work on the already fetched result.
    const replay = Object.create(this, { performIO: { value: async () => result } });
    const mapped = await queryRaw.call(replay, query);
    for (const index of charColumns) mapped.columnTypes[index] = ColumnTypeEnum.Character;
    return mapped;
  };
  return queryable;
}

// adapter-pg runs a script by splitting it on every ";" (which breaks on a ";" inside a string or a
// function body) and commits statement by statement. The native engine sends the whole script as one
// simple-protocol query: PostgreSQL then runs it as one implicit transaction. Do the same.
function runScriptsWhole(adapter) {
  adapter.executeScript = async function (script) {
    try {
      await this.client.query(script);
    } catch (error) {
      this.onError(error);
    }
  };
  return adapter;
}

function patchAdapter(adapter) {
  acceptCharColumns(runScriptsWhole(adapter));
  const startTransaction = adapter.startTransaction;
  adapter.startTransaction = async function (...args) {
    return acceptCharColumns(await startTransaction.apply(this, args));
  };
  return adapter;
}

/** A migration-aware adapter factory over adapter-pg, with the bridged mismatches. */
function createAdapterFactory({ url, shadowDatabaseUrl }) {
  const main = connectionSettings(url);
  const mainFactory = new PrismaPg(main.config, { schema: main.schema });
  return {
    provider: mainFactory.provider,
    adapterName: mainFactory.adapterName,
    async connect() {
      return patchAdapter(await mainFactory.connect());
    },
    async connectToShadowDb() {
      if (shadowDatabaseUrl) return connectToConfiguredShadowDb(shadowDatabaseUrl);
      return connectToTemporaryShadowDb(main);
    },
  };
}

// Mismatch 4: a configured shadow database (SHADOW_DATABASE_URL) is reused from one command to the
// next, so it is emptied first, as the native engine does.
async function connectToConfiguredShadowDb(shadowUrl) {
  const shadow = connectionSettings(shadowUrl);
  const adapter = patchAdapter(await new PrismaPg(shadow.config, { schema: shadow.schema }).connect());
  const { rows } = await adapter.client.query(`SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'`);
  const drops = rows.map((row) => `DROP SCHEMA ${quoteIdent(row.nspname)} CASCADE;`).join("\n");
  await adapter.client.query(`${drops}\nCREATE SCHEMA IF NOT EXISTS ${quoteIdent(shadow.schema)};`);
  return adapter;
}

// Mismatch 4: adapter-pg's own temporary shadow database is dropped while its pool is still
// connected to it, which PostgreSQL refuses. Here the pool is closed first, then the database dropped.
async function connectToTemporaryShadowDb(main) {
  const admin = new pg.Client({ ...main.config, max: undefined });
  await admin.connect();
  const database = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID()}`;
  await admin.query(`CREATE DATABASE ${quoteIdent(database)}`);
  const adapter = patchAdapter(await new PrismaPg({ ...main.config, database }, { schema: main.schema }).connect());
  const dispose = adapter.dispose;
  adapter.dispose = async function () {
    try {
      await dispose.call(this); // closes the pool
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)}`);
    } finally {
      await admin.end();
    }
  };
  return adapter;
}

// ---------------------------------------------------------------------------------------------
// One-shot commands, used by the CLI before `migrate dev` / `db push` to create a missing database.
// Errors go to stderr as the native engine's JSON log lines, which the CLI parses for `error_code`.
function logError(message, errorCode) {
  const line = {
    timestamp: new Date().toISOString(),
    level: "ERROR",
    fields: { message, ...(errorCode ? { error_code: errorCode } : {}) },
    target: "schema_engine::logger",
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

function describeConnectionError(error, config) {
  const where = `${config.host}:${config.port}`;
  switch (error.code) {
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
      return { code: "P1001", message: `Can't reach database server at \`${where}\`\n\nPlease make sure your database server is running at \`${where}\`.` };
    case "3D000":
      return { code: "P1003", message: `Database \`${config.database}\` does not exist on the database server at \`${where}\`.` };
    case "28P01":
    case "28000":
      return {
        code: "P1000",
        message: `Authentication failed against database server at \`${where}\`, the provided database credentials for \`${config.user}\` are not valid.`,
      };
    default:
      return { code: "P1001", message: `Can't connect to the database server at \`${where}\`: ${error.message}` };
  }
}

async function runOneShot(command, datasource) {
  // The CLI skips the first stderr line of a one-shot command (the native engine's start-up log).
  process.stderr.write(
    `${JSON.stringify({ timestamp: new Date().toISOString(), level: "INFO", fields: { message: "Starting schema engine CLI (wasm bridge)" }, target: "schema_engine::cli" })}\n`,
  );
  const { config } = connectionSettings(datasource.url);
  if (command === "can-connect-to-database") {
    const client = new pg.Client(config);
    try {
      await client.connect();
      await client.query("SELECT 1");
      return 0;
    } catch (error) {
      const { code, message } = describeConnectionError(error, config);
      logError(message, code);
      return 1;
    } finally {
      await client.end().catch(() => {});
    }
  }
  if (command === "create-database") {
    const client = new pg.Client({ ...config, database: "postgres" });
    try {
      await client.connect();
      await client.query(`CREATE DATABASE ${quoteIdent(config.database)}`);
      return 0;
    } catch (error) {
      if (error.code === "42P04") return 0; // already there
      const { code, message } = describeConnectionError(error, { ...config, database: "postgres" });
      logError(error.code ? `${error.message}` : message, error.code ? "P1010" : code);
      return 1;
    } finally {
      await client.end().catch(() => {});
    }
  }
  logError(`Unknown command: cli ${command}`);
  return 1;
}

// ---------------------------------------------------------------------------------------------
// The wasm engine. Importing a .wasm file is an experimental feature on the Node.js versions the
// project supports (22.13 refuses it, ERR_UNKNOWN_FILE_EXTENSION; 22.23 and 24.21 allow it with an
// ExperimentalWarning on stderr), so the module's glue code is given the instance by hand, exactly
// as its own entry point would.
async function loadSchemaEngineClass() {
  const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
  const wasmPath = path.join(wasmPackageDir, "schema_engine_bg.wasm");
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), { "./schema_engine_bg.js": glue });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return glue.SchemaEngine;
}

function forwardEngineLog(line) {
  // The engine logs tracing events as JSON; the CLI shows them in debug mode and remembers errors.
  process.stderr.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`);
}

class EngineHost {
  constructor(args) {
    this.args = args;
    this.enginePromise = null;
    this.adapterFactory = null;
    this.diagnosedHistories = new Set();
    this.pendingPrints = new Map();
    this.nextPrintId = 1;
  }

  engine() {
    if (!this.enginePromise) {
      this.enginePromise = (async () => {
        const SchemaEngine = await loadSchemaEngineClass();
        const datasource = this.args.datasource ?? {};
        if (!datasource.url) throw new Error("The schema engine bridge needs --datasource with a url (prisma.config.ts > datasource.url).");
        this.adapterFactory = bindMigrationAwareSqlAdapterFactory(createAdapterFactory(datasource));
        const files = this.args.datamodels.map((file) => [file, fs.readFileSync(file, "utf8")]);
        // `datamodels` must be undefined or non-empty.
        return SchemaEngine.new({ datamodels: files.length ? files : undefined }, forwardEngineLog, this.adapterFactory);
      })();
    }
    return this.enginePromise;
  }

  async call(method, params) {
    const engine = await this.engine();
    switch (method) {
      case "getDatabaseVersion":
        return engine.version(params ?? null);
      case "createDatabase":
        return this.createDatabase(params);
      case "evaluateDataLoss":
      case "createMigration": {
        // Mismatch 5: the wasm engine computes the schema of the migration history (replayed on the
        // shadow database) only in diagnoseMigrationHistory/devDiagnostic and caches it; these two
        // methods only read that cache, and fail ("shadow DB must be provided through an external
        // factory") when it is cold, e.g. on a fresh database with existing migrations. Warm it once
        // per migration list.
        const key = JSON.stringify(params.migrationsList?.migrationDirectories?.map((d) => d.path) ?? []);
        if (!this.diagnosedHistories.has(key)) {
          await engine.diagnoseMigrationHistory({
            migrationsList: params.migrationsList,
            optInToShadowDatabase: true,
            filters: params.filters,
          });
          this.diagnosedHistories.add(key);
        }
        return engine[method](params);
      }
      case "diff": {
        // Mismatch 6: the native engine prints the diff through a `print` request to the CLI and
        // answers with stdout: null; the wasm engine returns the text instead.
        const { stdout, ...rest } = await engine.diff(params);
        if (stdout) await this.print(stdout);
        return { ...rest, stdout: null };
      }
      default:
        if (typeof engine[method] !== "function" || method === "free") {
          throw Object.assign(new Error(`The schema engine bridge does not support \`${method}\`.`), { code: undefined });
        }
        return engine[method](params);
    }
  }

  async createDatabase(params) {
    const url = params?.datasource?.url ?? this.args.datasource?.url;
    const { config } = connectionSettings(url);
    const code = await runOneShot("create-database", { url });
    if (code !== 0) throw new Error(`Could not create database ${config.database}`);
    return { databaseName: config.database };
  }

  print(content) {
    const id = `print-${this.nextPrintId++}`;
    return new Promise((resolve) => {
      this.pendingPrints.set(id, resolve);
      send({ jsonrpc: "2.0", id, method: "print", params: { content } });
    });
  }

  handleClientResponse(message) {
    const resolve = this.pendingPrints.get(message.id);
    if (!resolve) return false;
    this.pendingPrints.delete(message.id);
    resolve();
    return true;
  }

  // Mismatch 7: engine errors become JSON-RPC errors with code 4466 and `data.message` (plus
  // `error_code` for the P-codes the CLI knows); a failure inside the adapter is kept in the
  // adapter's error registry and only its id reaches the engine's message, so it is looked up.
  toRpcError(error) {
    const isPanic = error instanceof WebAssembly.RuntimeError || error?.name === "RuntimeError";
    let message = error?.message ?? String(error);
    const registryId = /(?:External error id#|GenericJs\D*)(\d+)/.exec(message)?.[1];
    if (registryId !== undefined && this.adapterFactory) {
      const record = this.adapterFactory.errorRegistry.consumeError(Number(registryId));
      if (record) message = `${message}\n${record.error?.message ?? String(record.error)}`;
    }
    const data = { is_panic: isPanic, message };
    if (error?.code) data.error_code = error.code;
    if (error?.meta) data.meta = error.meta;
    return { code: ENGINE_ERROR_CODE, message: "An error happened. Check the data field for details.", data };
  }
}

function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

async function serveRpc(args) {
  const host = new EngineHost(args);
  let queue = Promise.resolve();
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on("line", (line) => {
    if (!line.trim()) return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      return;
    }
    if (message.method === undefined) {
      host.handleClientResponse(message); // an answer to our `print` request
      return;
    }
    // One method at a time, in order, as the native engine does.
    queue = queue.then(async () => {
      try {
        const result = await host.call(message.method, message.params);
        send({ jsonrpc: "2.0", id: message.id, result: result ?? null });
      } catch (error) {
        send({ jsonrpc: "2.0", id: message.id, error: host.toRpcError(error) });
      }
    });
  });
  input.on("close", () => {
    // The CLI closes stdin when it is done; open pools must not keep this process alive.
    queue.finally(() => process.exit(0));
  });
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.version) {
    process.stdout.write(`schema-engine-cli ${engineVersionHash()}\n`);
    return;
  }
  if (args.command) {
    if (!args.datasource?.url) {
      logError("The schema engine bridge needs --datasource with a url.");
      process.exit(1);
    }
    process.exit(await runOneShot(args.command, args.datasource));
  }
  await serveRpc(args);
}

main().catch((error) => {
  logError(error?.stack ?? String(error));
  process.exit(1);
});
