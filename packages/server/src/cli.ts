#!/usr/bin/env node
/**
 * The `groundwork` command: `serve`, `worker`, `keys create|revoke|list`, `schema-config set`.
 * Every command opens the database the environment names: SQLite in the data folder, or
 * PostgreSQL when GROUNDWORK_DATABASE_URL is set.
 * Output meant for scripts (a created key) is the last line of stdout; messages for
 * people go to stderr.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { isPlan, isRole, type Plan, type Role } from "@groundwork/core";
import { validateExtractionConfig } from "@groundwork/scoring";
import { openStore } from "@groundwork/store-sqlite";
import { databaseFile, databaseFromEnv, loadConfig, resolveDataDir } from "./config.js";
import { createLogger } from "./logger.js";
import { openServerStore } from "./open-server-store.js";
import { runWorkers, serveGroundwork } from "./serve.js";

const USAGE = `Usage: groundwork <command> [options]

Commands:
  serve [--host 127.0.0.1] [--port 8080] [--data ./.groundwork] [--no-workers]
      Serve the /v1 API on embedded SQLite (or PostgreSQL: GROUNDWORK_DATABASE_URL). The first start
      creates the organization "default" and an Admin key, prints it once and writes it to
      <data>/bootstrap-key. --no-workers (PostgreSQL only): serve requests, leave the jobs to workers.
  worker [--data ./.groundwork]
      Run only the background jobs (conversions, extractions, ingestion, agent runs, experiments)
      on the PostgreSQL database of GROUNDWORK_DATABASE_URL; start as many as you like.
  keys create --data DIR --org NAME --role admin|member|viewer [--plan free|team|business|enterprise] [--name LABEL]
      Create an API key (and the organization if absent); the key is the last line of stdout.
  keys revoke --data DIR KEY_ID_OR_KEY
  keys list --data DIR [--org NAME]
  schema-config set --data DIR --version VERSION_ID --file CONFIG.json
      Set a schema version's extractionConfig (support tool; the API cannot). The file is checked
      before it is stored; the config set is printed.
  copy-to-postgres --data DIR --database-url postgres://USER:PASSWORD@HOST:PORT/DATABASE
      Copy every row of the (stopped) server's SQLite database into a new, empty PostgreSQL
      database, in one transaction; prints the rows of each table. The URL may also come from
      GROUNDWORK_DATABASE_URL. Start the server on PostgreSQL with the same GROUNDWORK_SECRET.

Environment: GROUNDWORK_DATA_DIR, GROUNDWORK_DATABASE_URL, GROUNDWORK_PORT, GROUNDWORK_SECRET,
GROUNDWORK_BUILTIN_BASE_URL, GROUNDWORK_BUILTIN_API_KEY, GROUNDWORK_ALLOW_PRIVATE_NETWORK,
GROUNDWORK_WORKERS, GROUNDWORK_LOG_LEVEL.`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, subcommand] = argv;
  switch (command) {
    case "serve":
      return serveCommand(argv.slice(1));
    case "worker":
      return workerCommand(argv.slice(1));
    case "keys":
      if (subcommand === "create") return keysCreate(argv.slice(2));
      if (subcommand === "revoke") return keysRevoke(argv.slice(2));
      if (subcommand === "list") return keysList(argv.slice(2));
      throw new UsageError(`Unknown keys command "${subcommand ?? ""}"`);
    case "copy-to-postgres":
      return copyToPostgres(argv.slice(1));
    case "schema-config":
      if (subcommand === "set") return schemaConfigSet(argv.slice(2));
      throw new UsageError(`Unknown schema-config command "${subcommand ?? ""}"`);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(`${USAGE}\n`);
      return 0;
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      data: { type: "string" },
      "no-workers": { type: "boolean" },
    },
    strict: true,
  });
  const config = loadConfig({
    dataDir: values.data,
    host: values.host,
    port: values.port,
    noWorkers: values["no-workers"],
  });
  const logger = createLogger({ level: config.logLevel });
  const server = await serveGroundwork(config, logger);
  if (server.bootstrap !== null) {
    process.stdout.write(
      `Created organization "default" (plan enterprise) and its first Admin API key, shown only now:\n` +
        `${server.bootstrap.key}\n` +
        `It is also saved in ${server.bootstrap.keyFile} (mode 0600).\n`,
    );
  }
  process.stdout.write(
    `Groundwork listening on ${server.url} (data: ${config.dataDir}` +
      `${config.database.kind === "postgres" ? `, database: ${server.database}` : ""}` +
      `${config.workers ? "" : ", no workers"})\n`,
  );
  await untilSignalled(logger, () => server.close());
  return 0;
}

async function workerCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { data: { type: "string" } }, strict: true });
  const config = loadConfig({ dataDir: values.data });
  if (config.database.kind !== "postgres") {
    throw new UsageError(
      "groundwork worker needs GROUNDWORK_DATABASE_URL (PostgreSQL): on SQLite, `groundwork serve` runs the workers",
    );
  }
  const logger = createLogger({ level: config.logLevel });
  const workers = await runWorkers(config);
  process.stdout.write(`Groundwork worker running (database: ${workers.database})\n`);
  await untilSignalled(logger, () => workers.close());
  return 0;
}

/** Waits for SIGINT or SIGTERM, then runs `close` (once) and resolves when it is done. */
async function untilSignalled(
  logger: ReturnType<typeof createLogger>,
  close: () => Promise<void>,
): Promise<void> {
  await new Promise<void>((resolveStopped) => {
    const stop = (signal: NodeJS.Signals) => {
      logger.info("shutting down", { signal });
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      close().then(resolveStopped, (error: unknown) => {
        logger.error("shutdown failed", { error: String(error) });
        resolveStopped();
      });
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  logger.info("stopped");
}

/** The database of a CLI command: the data folder's SQLite file, or GROUNDWORK_DATABASE_URL's. */
async function openCommandStore(data: string | undefined) {
  return (await openServerStore(databaseFromEnv(resolveDataDir(data)))).store;
}

async function keysCreate(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: "string" },
      org: { type: "string" },
      role: { type: "string" },
      plan: { type: "string" },
      name: { type: "string" },
    },
    strict: true,
  });
  if (values.org === undefined || values.org === "") throw new UsageError("--org NAME is required");
  const role = values.role;
  if (!isRole(role)) throw new UsageError("--role must be admin, member or viewer");
  const plan = values.plan ?? "enterprise";
  if (!isPlan(plan)) throw new UsageError("--plan must be free, team, business or enterprise");
  const store = await openCommandStore(values.data);
  try {
    const { organization, created } = await store.organizations.ensure(values.org, plan as Plan);
    if (!created && values.plan !== undefined && organization.plan !== plan) {
      process.stderr.write(
        `Organization "${organization.name}" already exists on plan ${organization.plan}; --plan ignored.\n`,
      );
    }
    const { key, record } = await store.apiKeys.create({
      organizationId: organization.id,
      role: role as Role,
      ...(values.name === undefined ? {} : { name: values.name }),
    });
    process.stderr.write(
      `Created ${record.role} key ${record.id} for organization "${organization.name}"` +
        `${created ? ` (new, plan ${organization.plan})` : ""}. It is shown only now:\n`,
    );
    process.stdout.write(`${key}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

async function keysRevoke(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { data: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  const target = positionals[0];
  if (target === undefined) throw new UsageError("keys revoke needs the key id (key_…) or the key itself");
  const store = await openCommandStore(values.data);
  try {
    if (!(await store.apiKeys.revoke(target))) {
      process.stderr.write("No active key matches.\n");
      return 1;
    }
    process.stdout.write("Revoked.\n");
    return 0;
  } finally {
    await store.close();
  }
}

async function keysList(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { data: { type: "string" }, org: { type: "string" } },
    strict: true,
  });
  const store = await openCommandStore(values.data);
  try {
    let organizationId: string | undefined;
    if (values.org !== undefined) {
      const organization = await store.organizations.findByName(values.org);
      if (organization === null) throw new UsageError(`No organization named "${values.org}"`);
      organizationId = organization.id;
    }
    const names = new Map<string, string>();
    const rows = await Promise.all(
      (await store.apiKeys.list(organizationId)).map(async (key) => {
        if (!names.has(key.organizationId)) {
          names.set(
            key.organizationId,
            (await store.organizations.get(key.organizationId))?.name ?? key.organizationId,
          );
        }
        return [
          key.id,
          names.get(key.organizationId) ?? "",
          key.role,
          `${key.prefix}…`,
          new Date(key.createdAt).toISOString(),
          key.lastUsedAt === null ? "never" : new Date(key.lastUsedAt).toISOString(),
          key.revokedAt === null ? "active" : "revoked",
        ];
      }),
    );
    const header = ["ID", "ORGANIZATION", "ROLE", "KEY", "CREATED", "LAST USED", "STATUS"];
    const table = [header, ...rows];
    const widths = header.map((_, column) => Math.max(...table.map((row) => (row[column] ?? "").length)));
    for (const row of table) {
      process.stdout.write(
        `${row
          .map((cell, column) => cell.padEnd(widths[column] ?? 0))
          .join("  ")
          .trimEnd()}\n`,
      );
    }
    return 0;
  } finally {
    await store.close();
  }
}

async function schemaConfigSet(args: string[]): Promise<number> {
  let values: { data?: string | undefined; version?: string | undefined; file?: string | undefined };
  try {
    ({ values } = parseArgs({
      args,
      options: { data: { type: "string" }, version: { type: "string" }, file: { type: "string" } },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.version === undefined || values.version === "")
    throw new UsageError("--version VERSION_ID is required");
  if (values.file === undefined || values.file === "") throw new UsageError("--file CONFIG.json is required");
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(values.file, "utf8")) as unknown;
  } catch (error) {
    process.stderr.write(
      `Cannot read ${values.file} as JSON: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const check = validateExtractionConfig(config);
  if (!check.valid) {
    process.stderr.write(
      `Invalid extractionConfig in ${values.file}:\n${check.errors.map((e) => `  - ${e}`).join("\n")}\n`,
    );
    return 1;
  }
  const store = await openCommandStore(values.data);
  try {
    const version = await store.schemas.versionById(values.version);
    if (version === null) {
      process.stderr.write(`No schema version ${values.version}.\n`);
      return 1;
    }
    await store.schemas.setExtractionConfig(version.id, config as Record<string, unknown>);
    process.stderr.write(
      `Set the extractionConfig of version ${version.versionNumber} (${version.id}) of schema "${version.schemaName}":\n`,
    );
    process.stdout.write(`${JSON.stringify(config, null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

/** `copy-to-postgres`: the SQLite database of a data folder into a new PostgreSQL database (decision PG167). */
async function copyToPostgres(args: string[]): Promise<number> {
  let values: { data?: string | undefined; "database-url"?: string | undefined };
  try {
    ({ values } = parseArgs({
      args,
      options: { data: { type: "string" }, "database-url": { type: "string" } },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const url = values["database-url"] ?? process.env.GROUNDWORK_DATABASE_URL;
  if (url === undefined || url === "") throw new UsageError("--database-url postgres://… is required");
  const file = databaseFile(resolveDataDir(values.data));
  // openStore would create an empty database: a wrong --data must not copy nothing successfully.
  if (!existsSync(file)) {
    process.stderr.write(`No Groundwork database at ${file}: pass the server's --data folder.\n`);
    return 1;
  }
  // PostgreSQL's modules load only for the commands that use it, as in open-server-store.ts.
  const [{ CopyFromSqliteError, copyFromSqlite, fromPgPool }, { default: pg }] = await Promise.all([
    import("@groundwork/store-postgres"),
    import("pg"),
  ]);
  // Opening migrates the SQLite database to this version's schema, as the server's start would.
  const store = openStore({ file });
  const client = fromPgPool(new pg.Pool({ connectionString: url, max: 2 }));
  try {
    process.stderr.write(`Copying ${file} into PostgreSQL…\n`);
    const report = await copyFromSqlite(store.db, client);
    const width = Math.max(...report.tables.map((table) => table.table.length));
    for (const table of report.tables)
      process.stdout.write(`${table.table.padEnd(width)}  ${String(table.rows).padStart(9)}  ${table.how}\n`);
    const rows = report.tables.filter((table) => table.how === "copied").reduce((sum, t) => sum + t.rows, 0);
    process.stderr.write(
      `Copied ${rows} rows in ${report.tables.length} tables. Start the server with GROUNDWORK_DATABASE_URL ` +
        "and the same GROUNDWORK_SECRET; the SQLite data folder is left as it was.\n",
    );
    return 0;
  } catch (error) {
    if (!(error instanceof CopyFromSqliteError)) throw error;
    process.stderr.write(`Nothing was copied. ${error.message}\n`);
    return 1;
  } finally {
    await client.close();
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`groundwork: ${message}\n`);
    if (error instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
