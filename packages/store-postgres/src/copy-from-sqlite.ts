/**
 * Moves a server's data from its SQLite database to a PostgreSQL one (issue #24; decisions
 * PG162–PG168). The target is migrated first and must hold no rows; then, in ONE transaction,
 * every SQLite table is copied into the PostgreSQL table of the same name, parents before
 * children (the target's foreign keys), each value converted to its column's type as the
 * target's catalog declares it: 0/1 → boolean, JSON text → jsonb (TEXT JSON stays the exact
 * text), BLOB → bytea, integers (read as BigInt, so none loses precision) → integer/bigint.
 * What PostgreSQL derives itself is rebuilt instead of copied: the knowledge-base keyword rows
 * (FTS5 there, `tsvector` here) and vector rows (the pgvector column and its HNSW indexes, or
 * the int8 codes), through the store's own index classes. Identity sequences are moved past
 * the copied values and every table's count is checked before the commit.
 *
 * It fails — and writes nothing — when the target holds data, when a SQLite table that holds
 * rows has no PostgreSQL table (a family not on PostgreSQL yet), when a column has no column
 * to go to or a value does not fit its column. Secrets stay as they are: providers', connectors'
 * and tracing exporters' credentials are sealed with the master secret by the same cipher
 * (store-rows' CredentialCipher) on both stores, so the server on PostgreSQL opens them with
 * the same GROUNDWORK_SECRET.
 */
import { TEXT_SEARCH_LANGUAGES, type TextSearchLanguage } from "@groundwork/kb";
import { runPostgresMigrations } from "./migrations.js";
import { PostgresKeywordIndex } from "./postgres-keyword-index.js";
import { PostgresVectorIndex } from "./postgres-vector-index.js";
import type { SqlClient, SqlQueryable } from "./sql-client.js";

/** What the copy reads of a better-sqlite3 `Database` (this package does not depend on it). */
export interface SqliteSource {
  prepare(source: string): SqliteStatement;
}

export interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  safeIntegers(toggle?: boolean): SqliteStatement;
}

export interface CopiedTable {
  table: string;
  /** Rows now in the PostgreSQL table. */
  rows: number;
  /** `copied` row by row, or `rebuilt` by PostgreSQL from the copied rows (keyword and vector rows). */
  how: "copied" | "rebuilt";
}

export interface CopyReport {
  tables: CopiedTable[];
}

export interface CopyOptions {
  /** Told before each table is copied (the CLI prints progress). */
  onTable?: (table: string, rows: number) => void;
}

/** Why a copy was refused or failed; nothing was written to the target. */
export class CopyFromSqliteError extends Error {
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(problems.length === 0 ? message : `${message}:\n  - ${problems.join("\n  - ")}`);
    this.name = "CopyFromSqliteError";
  }
}

/** SQLite tables that are not data: each store keeps its own migration record. */
const NOT_DATA = new Set(["schema_migrations"]);
/** PostgreSQL tables whose rows are built from copied rows (by the classes that write them at run time). */
const REBUILT = new Set(["kb_keywords", "kb_vectors"]);
/** SQLite's keyword index (FTS5): read to know which chunks are indexed in which language; rebuilt on PostgreSQL. */
const SQLITE_KEYWORDS = "kb_fts";
/**
 * SQLite-only copies of other rows (the int8 scan rows and the keyword postings packed per
 * revision, HP40, HP44; the usage latency index written behind the rows and its watermark,
 * HP65): PostgreSQL has no such tables.
 */
const SQLITE_DERIVED = new Set([
  "kb_vector_packs",
  "kb_keyword_packs",
  "usage_latencies",
  "usage_latency_watermark",
]);
/** SQLite-only columns: the usage rows' sequence the latency index's watermark counts on (HP65). */
const SQLITE_ONLY_COLUMNS = new Set(["usage_records.seq"]);

interface TargetColumn {
  name: string;
  /** `information_schema.columns.data_type` (boolean, bigint, jsonb, bytea, text, …). */
  type: string;
  nullable: boolean;
  hasDefault: boolean;
  identity: boolean;
  generated: boolean;
}

interface SourceTable {
  name: string;
  columns: Array<{ name: string; declared: string }>;
  rows: number;
  withoutRowid: boolean;
}

interface TablePlan {
  name: string;
  rows: number;
  /** The columns copied, in SQLite's order, with their PostgreSQL column. */
  columns: TargetColumn[];
  withoutRowid: boolean;
}

/** Which PostgreSQL types a value of a SQLite declared type may go to (by SQLite's type affinity). */
function affinity(declared: string): "integer" | "text" | "blob" | "real" | "numeric" {
  const type = declared.toUpperCase();
  if (type.includes("INT")) return "integer";
  if (type.includes("CHAR") || type.includes("CLOB") || type.includes("TEXT")) return "text";
  if (type === "" || type.includes("BLOB")) return "blob";
  if (type.includes("REAL") || type.includes("FLOA") || type.includes("DOUB")) return "real";
  return "numeric";
}

const TARGETS: Record<ReturnType<typeof affinity>, ReadonlySet<string>> = {
  integer: new Set(["boolean", "smallint", "integer", "bigint", "double precision", "real", "numeric"]),
  real: new Set(["double precision", "real", "numeric"]),
  numeric: new Set(["smallint", "integer", "bigint", "double precision", "real", "numeric"]),
  text: new Set(["text", "character varying", "character", "jsonb", "json"]),
  blob: new Set(["bytea"]),
};

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * One SQLite value as its PostgreSQL column takes it, or a thrown message when it cannot be.
 * Integers arrive as BigInt (`safeIntegers`), so a 64-bit value is never rounded.
 */
function convert(value: unknown, column: TargetColumn): unknown {
  if (value === null || value === undefined) return null;
  switch (column.type) {
    case "boolean":
      if (value === 0n || value === 0) return false;
      if (value === 1n || value === 1) return true;
      break;
    case "smallint":
    case "integer":
    case "bigint":
      if (typeof value === "bigint") return value.toString();
      if (typeof value === "number" && Number.isInteger(value)) return String(value);
      break;
    case "double precision":
    case "real":
    case "numeric":
      if (typeof value === "bigint" || typeof value === "number") return String(value);
      break;
    case "text":
    case "character varying":
    case "character":
    case "json":
    case "jsonb":
      if (typeof value === "string") return value;
      break;
    case "bytea":
      if (Buffer.isBuffer(value)) return value;
      if (value instanceof Uint8Array) return Buffer.from(value);
      break;
  }
  const shown = Buffer.isBuffer(value) ? `a ${value.length}-byte BLOB` : `${typeof value} ${String(value)}`;
  throw new Error(`${shown} does not fit PostgreSQL ${column.type}`);
}

/** The placeholder of a value for its column: JSON goes as text, so both drivers send the exact text. */
function placeholder(index: number, column: TargetColumn): string {
  return column.type === "jsonb" || column.type === "json" ? `$${index}::text::${column.type}` : `$${index}`;
}

function readSource(source: SqliteSource): SourceTable[] {
  const tables = source
    .prepare(
      `SELECT name, sql FROM sqlite_master
       WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    )
    .all() as Array<{ name: string; sql: string | null }>;
  // Virtual tables (FTS5) and their shadow tables are index structures, not data.
  const virtual = tables.filter((table) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(table.sql ?? ""));
  const isIndexStructure = (name: string) =>
    virtual.some((table) => name === table.name || name.startsWith(`${table.name}_`));
  return tables
    .filter((table) => !isIndexStructure(table.name) && !NOT_DATA.has(table.name))
    .map((table) => {
      const columns = (
        source.prepare(`PRAGMA table_info(${quote(table.name)})`).all() as Array<{
          name: string;
          type: string;
        }>
      ).map((column) => ({ name: column.name, declared: column.type }));
      const [count] = source.prepare(`SELECT count(*) AS n FROM ${quote(table.name)}`).all() as Array<{
        n: number;
      }>;
      return {
        name: table.name,
        columns,
        rows: Number(count?.n ?? 0),
        withoutRowid: /WITHOUT\s+ROWID\s*;?\s*$/i.test(table.sql ?? ""),
      };
    });
}

async function readTarget(tx: SqlQueryable): Promise<Map<string, TargetColumn[]>> {
  const { rows } = await tx.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
    is_generated: string;
  }>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity, is_generated
     FROM information_schema.columns
     WHERE table_schema = current_schema()
     ORDER BY table_name, ordinal_position`,
  );
  const tables = new Map<string, TargetColumn[]>();
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? [];
    columns.push({
      name: row.column_name,
      type: row.data_type,
      nullable: row.is_nullable === "YES",
      hasDefault: row.column_default !== null,
      identity: row.is_identity === "YES",
      generated: row.is_generated === "ALWAYS",
    });
    tables.set(row.table_name, columns);
  }
  return tables;
}

/** Tables of the target that hold a row (schema_migrations aside). */
async function nonEmptyTables(tx: SqlQueryable, tables: Iterable<string>): Promise<string[]> {
  const names = [...tables].filter((name) => !NOT_DATA.has(name));
  if (names.length === 0) return [];
  const { rows } = await tx.query<{ name: string }>(
    names
      .map((name) => `SELECT '${name}' AS name WHERE EXISTS (SELECT 1 FROM ${quote(name)})`)
      .join(" UNION ALL "),
  );
  return rows.map((row) => row.name).sort();
}

/** Checks every table and column against the target before anything is written. */
function plan(source: SourceTable[], target: Map<string, TargetColumn[]>): TablePlan[] {
  const problems: string[] = [];
  const plans: TablePlan[] = [];
  for (const table of source) {
    if (table.name === SQLITE_KEYWORDS || REBUILT.has(table.name) || SQLITE_DERIVED.has(table.name)) continue;
    const columns = target.get(table.name);
    if (columns === undefined) {
      // An empty table of a family not on PostgreSQL yet loses nothing.
      if (table.rows > 0)
        problems.push(`table ${table.name} holds ${table.rows} rows and has no PostgreSQL table`);
      continue;
    }
    const byName = new Map(columns.map((column) => [column.name, column]));
    const copied: TargetColumn[] = [];
    for (const column of table.columns) {
      if (SQLITE_ONLY_COLUMNS.has(`${table.name}.${column.name}`)) continue;
      const to = byName.get(column.name);
      if (to === undefined) {
        problems.push(`column ${table.name}.${column.name} has no PostgreSQL column`);
        continue;
      }
      if (to.generated) continue; // PostgreSQL computes it from the copied columns
      const kind = affinity(column.declared);
      if (!TARGETS[kind].has(to.type)) {
        problems.push(
          `column ${table.name}.${column.name} (SQLite ${column.declared || "untyped"}) does not map to PostgreSQL ${to.type}`,
        );
        continue;
      }
      copied.push(to);
    }
    const sourceNames = new Set(table.columns.map((column) => column.name));
    for (const column of columns) {
      if (sourceNames.has(column.name)) continue;
      if (!column.nullable && !column.hasDefault && !column.identity && !column.generated)
        problems.push(
          `column ${table.name}.${column.name} is required on PostgreSQL and SQLite has no value for it`,
        );
    }
    plans.push({ name: table.name, rows: table.rows, columns: copied, withoutRowid: table.withoutRowid });
  }
  if (problems.length > 0)
    throw new CopyFromSqliteError("The SQLite database does not map onto the PostgreSQL schema", problems);
  return plans;
}

/** Parents before children by the target's foreign keys (self references aside), then by name. */
async function inForeignKeyOrder(tx: SqlQueryable, plans: TablePlan[]): Promise<TablePlan[]> {
  const { rows } = await tx.query<{ child: string; parent: string }>(
    `SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent
     FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace`,
  );
  const names = new Set(plans.map((each) => each.name));
  const parents = new Map<string, Set<string>>();
  for (const row of rows) {
    const child = row.child.replaceAll('"', "");
    const parent = row.parent.replaceAll('"', "");
    if (child === parent || !names.has(child) || !names.has(parent)) continue;
    parents.set(child, (parents.get(child) ?? new Set()).add(parent));
  }
  const ordered: TablePlan[] = [];
  const placed = new Set<string>();
  let pending = [...plans].sort((a, b) => (a.name < b.name ? -1 : 1));
  while (pending.length > 0) {
    const ready = pending.filter((each) => [...(parents.get(each.name) ?? [])].every((p) => placed.has(p)));
    if (ready.length === 0)
      throw new CopyFromSqliteError(
        `Foreign keys form a cycle between ${pending.map((each) => each.name).join(", ")}`,
      );
    for (const each of ready) {
      ordered.push(each);
      placed.add(each.name);
    }
    pending = pending.filter((each) => !placed.has(each.name));
  }
  return ordered;
}

/** Rows per INSERT: bounded by PostgreSQL's 65535 parameters and by bytes held in memory. */
const MAX_ROWS_PER_INSERT = 500;
const MAX_BYTES_PER_INSERT = 8 * 1024 * 1024;

async function copyTable(source: SqliteSource, tx: SqlQueryable, table: TablePlan): Promise<void> {
  if (table.rows === 0 || table.columns.length === 0) return;
  const list = table.columns.map((column) => quote(column.name)).join(", ");
  // Identity columns keep SQLite's values (rows reference them); without a rowid the primary key orders.
  const overriding = table.columns.some((column) => column.identity) ? " OVERRIDING SYSTEM VALUE" : "";
  const perInsert = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(60_000 / table.columns.length)));
  const read = source
    .prepare(`SELECT ${list} FROM ${quote(table.name)}${table.withoutRowid ? "" : " ORDER BY rowid"}`)
    .safeIntegers(true);
  let values: unknown[] = [];
  let tuples: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (tuples.length === 0) return;
    await tx.query(
      `INSERT INTO ${quote(table.name)} (${list})${overriding} VALUES ${tuples.join(", ")}`,
      values,
    );
    values = [];
    tuples = [];
    bytes = 0;
  };
  let position = 0;
  for (const row of read.iterate() as Iterable<Record<string, unknown>>) {
    position++;
    const marks: string[] = [];
    for (const column of table.columns) {
      let value: unknown;
      try {
        value = convert(row[column.name], column);
      } catch (error) {
        throw new CopyFromSqliteError(
          `Row ${position} of ${table.name}, column ${column.name}: ${(error as Error).message}`,
        );
      }
      values.push(value);
      bytes += typeof value === "string" ? value.length : Buffer.isBuffer(value) ? value.length : 8;
      marks.push(placeholder(values.length, column));
    }
    tuples.push(`(${marks.join(", ")})`);
    if (tuples.length >= perInsert || bytes >= MAX_BYTES_PER_INSERT) await flush();
  }
  await flush();
}

/** A client whose every call runs in the copy's transaction (the index classes take a client). */
function inTransaction(tx: SqlQueryable): SqlClient {
  return {
    query: (text, params) => tx.query(text, params),
    exec: (script) => tx.exec(script),
    transaction: (work) => work(tx),
    listen: () => Promise.reject(new Error("LISTEN is not available during a copy")),
    close: async () => {},
  };
}

const BATCH = 500;

/** Keyword rows for every chunk SQLite's FTS5 index holds, analysed by PostgreSQL (decision PG6). */
async function rebuildKeywords(
  source: SqliteSource,
  client: SqlClient,
  sourceTables: Set<string>,
): Promise<void> {
  if (!sourceTables.has(SQLITE_KEYWORDS)) return;
  // rowid = chunk seq × 64 + the language's index (store-sqlite kb-keyword-index.ts).
  const rows = source
    .prepare(
      `SELECT c.id AS chunk_id, f.knowledge_base_id AS kb, f.language AS language
       FROM ${SQLITE_KEYWORDS} f JOIN kb_chunks c ON c.seq = f.rowid / 64
       ORDER BY f.knowledge_base_id, f.language, f.rowid`,
    )
    .all() as Array<{ chunk_id: string; kb: string; language: string }>;
  const keywords = new PostgresKeywordIndex(client);
  const groups = new Map<string, { kb: string; language: TextSearchLanguage; ids: string[] }>();
  for (const row of rows) {
    if (!(TEXT_SEARCH_LANGUAGES as readonly string[]).includes(row.language))
      throw new CopyFromSqliteError(`Keyword rows of ${row.kb} name an unknown language "${row.language}"`);
    const key = `${row.kb}\u0000${row.language}`;
    const group = groups.get(key) ?? { kb: row.kb, language: row.language as TextSearchLanguage, ids: [] };
    group.ids.push(row.chunk_id);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    for (let start = 0; start < group.ids.length; start += BATCH) {
      const entries = group.ids.slice(start, start + BATCH).map((chunkId) => ({ chunkId, terms: "" }));
      await keywords.add(group.kb, group.language, entries);
    }
  }
}

/** Vector rows (pgvector column and HNSW index, or int8 codes) from SQLite's float32 embeddings. */
async function rebuildVectors(
  source: SqliteSource,
  client: SqlClient,
  sourceTables: Set<string>,
): Promise<void> {
  if (!sourceTables.has("kb_vectors")) return;
  const vectors = new PostgresVectorIndex(client);
  const read = source.prepare(
    `SELECT v.knowledge_base_id AS kb, c.id AS chunk_id, v.embedding AS embedding
     FROM kb_vectors v JOIN kb_chunks c ON c.seq = v.chunk_seq
     ORDER BY v.knowledge_base_id, v.chunk_seq`,
  );
  let kb: string | null = null;
  let entries: Array<{ chunkId: string; vector: Float32Array }> = [];
  const flush = async () => {
    if (kb !== null && entries.length > 0) await vectors.upsert(kb, entries);
    entries = [];
  };
  for (const row of read.iterate() as Iterable<{ kb: string; chunk_id: string; embedding: Buffer }>) {
    if (row.kb !== kb || entries.length >= BATCH) await flush();
    kb = row.kb;
    // Copied into an aligned buffer: the BLOB's bytes are float32, little-endian as written.
    const copy = new Uint8Array(row.embedding);
    entries.push({ chunkId: row.chunk_id, vector: new Float32Array(copy.buffer, 0, copy.byteLength / 4) });
  }
  await flush();
}

/** Moves every identity sequence past the largest copied value, so new rows never collide. */
async function resetIdentities(tx: SqlQueryable, plans: TablePlan[]): Promise<void> {
  for (const table of plans) {
    for (const column of table.columns) {
      if (!column.identity) continue;
      await tx.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), m, true)
         FROM (SELECT max(${quote(column.name)}) AS m FROM ${quote(table.name)}) AS t WHERE m IS NOT NULL`,
        [quote(table.name), column.name],
      );
    }
  }
}

/**
 * Copies every row of the SQLite database `source` into the PostgreSQL database `target`
 * (migrated here first), in one transaction; answers the rows per table.
 */
export async function copyFromSqlite(
  source: SqliteSource,
  target: SqlClient,
  options: CopyOptions = {},
): Promise<CopyReport> {
  await runPostgresMigrations(target);
  const sourceTables = readSource(source);
  const sourceNames = new Set(
    (
      source.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    ).map((row) => row.name),
  );
  return target.transaction(async (tx) => {
    const targetTables = await readTarget(tx);
    const occupied = await nonEmptyTables(tx, targetTables.keys());
    if (occupied.length > 0)
      throw new CopyFromSqliteError(
        `The PostgreSQL database already holds data (${occupied.join(", ")}); copy into a new, empty database`,
      );
    const plans = await inForeignKeyOrder(tx, plan(sourceTables, targetTables));
    // Triggers derive rows from the rows they see inserted (the usage rollups): the copied
    // derived rows already hold what they derived, so they must not fire twice.
    const triggered = (
      await tx.query<{ name: string }>(
        `SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
         WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace`,
      )
    ).rows.map((row) => row.name);
    for (const table of triggered) await tx.query(`ALTER TABLE ${quote(table)} DISABLE TRIGGER USER`);
    for (const table of plans) {
      options.onTable?.(table.name, table.rows);
      await copyTable(source, tx, table);
    }
    for (const table of triggered) await tx.query(`ALTER TABLE ${quote(table)} ENABLE TRIGGER USER`);
    await resetIdentities(tx, plans);
    const client = inTransaction(tx);
    options.onTable?.("kb_keywords", 0);
    await rebuildKeywords(source, client, sourceNames);
    options.onTable?.("kb_vectors", 0);
    await rebuildVectors(source, client, sourceNames);

    const report: CopiedTable[] = [];
    for (const table of plans) {
      const [row] = (await tx.query<{ n: string }>(`SELECT count(*) AS n FROM ${quote(table.name)}`)).rows;
      const rows = Number(row?.n ?? 0);
      if (rows !== table.rows)
        throw new CopyFromSqliteError(
          `${table.name}: ${rows} rows arrived of ${table.rows}; nothing was written`,
        );
      report.push({ table: table.name, rows, how: "copied" });
    }
    for (const table of REBUILT) {
      if (!targetTables.has(table)) continue;
      const [row] = (await tx.query<{ n: string }>(`SELECT count(*) AS n FROM ${quote(table)}`)).rows;
      report.push({ table, rows: Number(row?.n ?? 0), how: "rebuilt" });
    }
    return { tables: report.sort((a, b) => (a.table < b.table ? -1 : 1)) };
  });
}
