/**
 * Moving a server's data from SQLite to PostgreSQL (copy-from-sqlite.ts): a SQLite store filled
 * through the platform and the store families is copied into a database on the run's real
 * PostgreSQL server, and the PostgreSQL store then answers what SQLite answered — lists and
 * gets, the API key, the provider credential, knowledge-base searches — and deleting an
 * organization cascades alike. Plus the refusals, and a property over random rows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { EmbeddingModel, Principal } from "@groundwork/core";
import {
  type DocumentParser,
  Ingestion,
  type KnowledgeBaseRecord,
  searchKnowledgeBases,
} from "@groundwork/kb";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashEmbedding } from "../../gateway/src/hash-embedding.js";
import { baseConfig } from "../../kb/test/kb-ports-contract.js";
import { createGroundwork, type Groundwork } from "../../platform/src/create-groundwork.js";
import { openStore, type Store } from "../../store-sqlite/src/open-store.js";
import { usageEvent } from "../test/families/usage-contract.js";
import { createTestDatabase } from "../test/test-database.js";
import { CopyFromSqliteError, copyFromSqlite } from "./copy-from-sqlite.js";
import { runPostgresMigrations } from "./migrations.js";
import { openPostgresStore, type PostgresStore } from "./open-postgres-store.js";
import { fromPGlite, fromPgPool, type PGliteLike, type SqlClient } from "./sql-client.js";

const SECRET = "the same GROUNDWORK_SECRET on both stores";
const all = { page: 0, size: 100 };

const parser: DocumentParser = {
  async parse(source) {
    const text = new TextDecoder().decode(source.bytes);
    return {
      blocks: text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => ({ kind: "text" as const, text: line, page: 1 })),
      metadata: { format: "text" },
    };
  },
};
const hashEmbedder: EmbeddingModel = {
  async embed(request) {
    return { vectors: request.input.map(hashEmbedding), promptTokens: request.input.length };
  },
};
const downEmbedder: EmbeddingModel = {
  async embed() {
    throw new Error("the embedding upstream is down");
  },
};

/** The first two documents go to an English knowledge base, the third to a German one. */
const CORPUS: Record<string, string> = {
  "volcanoes.txt":
    "Magma rises through the crust and erupts as lava from volcanic vents.\nAsh clouds ground aircraft.",
  "baking.txt":
    "Yeast ferments the dough, which rises before baking in a hot oven.\nA sourdough starter replaces yeast.",
  "segeln.txt":
    "Die Schaluppe trägt einen Mast; beim Wenden dreht der Bug durch den Wind.\nReffen verkleinert die Segel.",
};
/** A query, the knowledge base it searches (index in `kbs`) and the document it must find first. */
const QUERIES: Array<[string, number, string]> = [
  ["lava from volcanic vents", 0, "volcanoes.txt"],
  ["sourdough yeast dough", 0, "baking.txt"],
  ["Schaluppe Mast Wind", 1, "segeln.txt"],
];

function pgClient(url: string): SqlClient {
  return fromPgPool(new pg.Pool({ connectionString: url, max: 4 }));
}

/** Rows per table of a PostgreSQL database (schema_migrations aside). */
async function postgresCounts(client: SqlClient): Promise<Record<string, number>> {
  const tables = (
    await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_name <> 'schema_migrations' ORDER BY 1`,
    )
  ).rows.map((row) => row.name);
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = (await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`)).rows;
    counts[table] = Number(row?.n);
  }
  return counts;
}

function sqliteCount(store: Store, table: string): number {
  return (store.db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
}

describe("copying a filled SQLite server to PostgreSQL", () => {
  let dir: string;
  let sqlite: Store;
  let groundwork: Groundwork;
  let admin: Principal;
  let other: Principal;
  let plainKey: string;
  let member: Principal;
  let providerId: string;
  let taskId: string;
  let kbs: KnowledgeBaseRecord[];
  let target: SqlClient;
  let postgres: PostgresStore;
  let report: Awaited<ReturnType<typeof copyFromSqlite>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "gw-copy-"));
    sqlite = openStore({ file: join(dir, "groundwork.db"), secret: SECRET });
    groundwork = createGroundwork({ store: sqlite });
    admin = await groundwork.principal("acme", "admin");
    other = await groundwork.principal("other", "member");
    plainKey = (
      await sqlite.apiKeys.create({ organizationId: admin.organizationId, role: "member", name: "ci" })
    ).key;
    providerId = (
      await sqlite.providers.create({
        organizationId: admin.organizationId,
        name: "upstream",
        type: "hosted-a",
        config: { baseUrl: "https://models.example.com/v1" },
        apiKey: "sk-upstream-secret",
      })
    ).id;
    await groundwork.prompts.create(admin.organizationId, {
      name: "greeting",
      type: "text",
      prompt: "Hello {{name}} — ünïcödé",
      tags: ["a", "b"],
    });
    const dataset = await groundwork.datasets.create(admin, { name: "qa", metadata: { owner: "ml" } });
    await groundwork.datasets.addItems(admin, dataset.id, {
      items: [{ input: { q: 1 }, expectedOutput: "one" }, { input: { q: 2 } }],
    });
    await groundwork.datasets.createVersion(admin, dataset.id, { description: "first" });
    const conversation = await groundwork.conversations.create(admin, { title: "support" });
    await groundwork.conversations.create(other, { title: "elsewhere" });
    await groundwork.scores.record(admin, {
      subjectType: "conversation",
      subjectId: conversation.id,
      name: "helpfulness",
      dataType: "NUMERIC",
      value: 0.75,
    });
    // Memory belongs to a member: the principal of an API key.
    member = (await sqlite.apiKeys.authenticate(plainKey)) as Principal;
    await groundwork.memory.write(member, {
      command: "create",
      path: "/memories/notes.md",
      content: "remember ✓",
    });
    const task = await sqlite.conversionTasks.create({
      organizationId: admin.organizationId,
      request: { options: { to_formats: ["md"] } },
      inputs: [
        { kind: "bytes", filename: "a.txt", mimeType: "text/plain", content: Buffer.from([0, 1, 2, 255]) },
      ],
    });
    taskId = task.id;
    await sqlite.extractions.create({
      organizationId: admin.organizationId,
      schemaId: "inline",
      schemaVersionId: "inline",
      status: "COMPLETED",
      strategy: "SINGLE_SHOT",
      model: "hosted-a/model",
      inputText: "Invoice 42, total 12.50 EUR",
      imageCount: 0,
      inputTokens: 9,
      result: { invoice: 42, total: 12.5 },
    });
    for (let i = 0; i < 5; i++) {
      await sqlite.usage.record(
        usageEvent(admin.organizationId, { apiKeyId: admin.apiKeyId, byok: i % 2 === 0, latencyMs: 100 + i }),
      );
    }
    sqlite.usage.flush();
    // Two knowledge bases with documents, indexed by the kb engine (keyword and vector rows).
    kbs = [];
    for (const slug of ["handbook", "second"]) {
      kbs.push(
        await sqlite.knowledgeBases.create(admin.organizationId, {
          ...baseConfig,
          slug,
          name: slug,
          embeddingDim: 1536,
          chunkSize: 60,
          textSearchLanguage: slug === "handbook" ? "english" : "german",
        }),
      );
    }
    const ingestion = new Ingestion({
      store: sqlite.knowledgeBases,
      vectors: sqlite.kbVectors,
      keywords: sqlite.kbKeywords,
      parser,
      embedderFor: () => hashEmbedder,
    });
    for (const [filename, text] of Object.entries(CORPUS)) {
      const { revision } = await sqlite.knowledgeBases.acceptUpload({
        knowledgeBase: kbs[filename === "segeln.txt" ? 1 : 0] as KnowledgeBaseRecord,
        filename,
        mime: "text/plain",
        bytes: new TextEncoder().encode(text),
        metadata: { topic: filename },
        apiKeyId: null,
      });
      expect(await ingestion.run(revision.id)).toMatchObject({ status: "READY" });
    }

    target = pgClient(await createTestDatabase("copy_target"));
    report = await copyFromSqlite(sqlite.db, target);
    postgres = await openPostgresStore({ client: target, secret: SECRET });
  }, 120_000);

  afterAll(async () => {
    await postgres?.close();
    await sqlite?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("copies every row and reports the count of each table", async () => {
    const counts = await postgresCounts(target);
    const copied = report.tables.filter((table) => table.how === "copied");
    expect(copied.length).toBeGreaterThan(40);
    for (const table of copied) {
      expect(table.rows, table.table).toBe(sqliteCount(sqlite, table.table));
      expect(counts[table.table], table.table).toBe(table.rows);
    }
    for (const table of ["organizations", "api_keys", "providers", "prompts", "dataset_items", "kb_chunks"])
      expect(report.tables.find((each) => each.table === table)?.rows, table).toBeGreaterThan(0);
    // Rebuilt by PostgreSQL: a keyword row per indexed chunk, a vector row per embedded chunk.
    expect(report.tables.find((each) => each.table === "kb_keywords")).toEqual({
      table: "kb_keywords",
      rows: sqliteCount(sqlite, "kb_fts"),
      how: "rebuilt",
    });
    expect(report.tables.find((each) => each.table === "kb_vectors")?.rows).toBe(
      sqliteCount(sqlite, "kb_vectors"),
    );
    // The usage rollups are the copied ones: the insert trigger did not count the rows twice.
    const rollup = async () =>
      (await target.query<{ n: string }>("SELECT sum(requests) AS n FROM usage_hourly")).rows[0]?.n;
    expect(Number(await rollup())).toBe(5);
  });

  it("answers the same lists and gets on PostgreSQL", async () => {
    const onPostgres = createGroundwork({ store: postgres });
    for (const principal of [admin, member, other]) {
      for (const [name, read] of [
        ["prompts", (g: Groundwork) => g.prompts.list(principal.organizationId, {}, all)],
        ["datasets", (g: Groundwork) => g.datasets.list(principal, {}, all)],
        ["conversations", (g: Groundwork) => g.conversations.list(principal, {}, all)],
        ["scores", (g: Groundwork) => g.scores.list(principal, {}, all)],
        ["providers", (g: Groundwork) => g.providers.list(principal.organizationId, all)],
      ] as const) {
        expect(await read(onPostgres as never), name).toEqual(await read(groundwork as never));
      }
    }
    expect(await onPostgres.memory.list(member, { page: all })).toEqual(
      await groundwork.memory.list(member, { page: all }),
    );
    const [dataset] = (await groundwork.datasets.list(admin, {}, all)).items;
    const id = dataset?.id ?? "";
    expect(await onPostgres.datasets.listItems(admin, id, {}, all)).toEqual(
      await groundwork.datasets.listItems(admin, id, {}, all),
    );
    expect(await onPostgres.datasets.listVersions(admin, id, all)).toEqual(
      await groundwork.datasets.listVersions(admin, id, all),
    );
    expect(await onPostgres.prompts.get(admin.organizationId, "greeting")).toEqual(
      await groundwork.prompts.get(admin.organizationId, "greeting"),
    );
    expect(await postgres.organizations.findByName("acme")).toEqual(
      await sqlite.organizations.findByName("acme"),
    );
    expect(await postgres.apiKeys.list(admin.organizationId)).toEqual(
      await sqlite.apiKeys.list(admin.organizationId),
    );
    expect(await postgres.conversionTasks.get(taskId, admin.organizationId)).toEqual(
      await sqlite.conversionTasks.get(taskId, admin.organizationId),
    );
    expect(await postgres.conversionTasks.inputs(taskId)).toEqual(
      await sqlite.conversionTasks.inputs(taskId),
    );
    expect(await postgres.extractions.list(admin.organizationId, all)).toEqual(
      await sqlite.extractions.list(admin.organizationId, all),
    );
  });

  it("verifies the API key and opens the provider credential with the same secret", async () => {
    expect(await postgres.apiKeys.authenticate(plainKey)).toEqual(
      await sqlite.apiKeys.authenticate(plainKey),
    );
    expect((await postgres.apiKeys.authenticate(plainKey))?.organizationId).toBe(admin.organizationId);
    expect((await postgres.providers.getWithCredentials(admin.organizationId, providerId))?.apiKey).toBe(
      "sk-upstream-secret",
    );
  });

  it("answers knowledge-base searches alike: the same vector neighbours, the same best document", async () => {
    const search = (store: Store | PostgresStore, kb: number, query: string, embedder: EmbeddingModel) =>
      searchKnowledgeBases(
        {
          store: store.knowledgeBases as never,
          vectors: store.kbVectors as never,
          keywords: store.kbKeywords as never,
          embedderFor: () => embedder,
        },
        [kbs[kb] as KnowledgeBaseRecord],
        { query, topK: 3 },
      );
    for (const [query, kb, document] of QUERIES) {
      // The vector leg: the copied vectors answer the same chunks in the same order.
      const vector = hashEmbedding(query);
      const nearest = { knowledgeBaseId: kbs[kb]?.id ?? "", vector, k: 3, documentIds: null };
      const reference = (await sqlite.kbVectors.search(nearest)).map((hit) => hit.chunkId);
      expect(reference.length).toBeGreaterThan(0);
      expect(
        (await postgres.kbVectors.search(nearest)).map((hit) => hit.chunkId),
        query,
      ).toEqual(reference);
      // Both legs: the same best document and chunk (lower ranks may differ, decision PG7).
      const before = await search(sqlite, kb, query, hashEmbedder);
      const after = await search(postgres, kb, query, hashEmbedder);
      expect(before.hits[0]?.documentName, query).toBe(document);
      expect(after.hits[0]?.documentName, query).toBe(document);
      expect(after.hits[0]?.chunkId, query).toBe(before.hits[0]?.chunkId);
      // The keyword leg alone (the embedder down) finds it too: its tsvector rows were built.
      const lexical = await search(postgres, kb, query, downEmbedder);
      expect(lexical.degraded).toBe("lexical_only");
      expect(lexical.hits[0]?.documentName, query).toBe(document);
    }
  });

  it("refuses a target that already holds data, and writes nothing", async () => {
    const before = await postgresCounts(target);
    await expect(copyFromSqlite(sqlite.db, target)).rejects.toThrow(/already holds data \(.*organizations/);
    expect(await postgresCounts(target)).toEqual(before);
  });

  it("deletes an organization's rows alike on both stores (ON DELETE CASCADE)", async () => {
    sqlite.db.prepare("DELETE FROM organizations WHERE id = ?").run(admin.organizationId);
    await target.query("DELETE FROM organizations WHERE id = $1", [admin.organizationId]);
    const counts = await postgresCounts(target);
    for (const table of report.tables.filter((each) => each.how === "copied"))
      expect(counts[table.table], table.table).toBe(sqliteCount(sqlite, table.table));
    expect(counts.kb_keywords).toBe(0);
    expect(counts.organizations).toBe(1);
  });
});

/** Empties every table (schema_migrations aside): the next copy's target is new again. */
async function emptyDatabase(client: SqlClient): Promise<void> {
  const tables = Object.keys(await postgresCounts(client)).map((table) => `"${table}"`);
  await client.exec(`TRUNCATE ${tables.join(", ")}`);
}

describe("on one PGlite database: refusals and random rows", () => {
  let pglite: SqlClient;
  beforeAll(async () => {
    pglite = fromPGlite((await PGlite.create()) as unknown as PGliteLike);
    await runPostgresMigrations(pglite);
  }, 60_000);
  afterAll(async () => {
    await pglite?.close();
  });

  it("fails, writing nothing, when a table with rows has no PostgreSQL table or a column has none", async () => {
    const sqlite = openStore({ file: ":memory:", secret: SECRET });
    await sqlite.organizations.create("acme", "team");
    sqlite.db.exec(
      "CREATE TABLE plugin_extras (id TEXT PRIMARY KEY); INSERT INTO plugin_extras VALUES ('x')",
    );
    sqlite.db.exec("CREATE TABLE empty_extras (id TEXT PRIMARY KEY)");
    sqlite.db.exec("ALTER TABLE prompts ADD COLUMN colour TEXT");
    const failure = await copyFromSqlite(sqlite.db, pglite).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CopyFromSqliteError);
    expect((failure as CopyFromSqliteError).problems).toEqual([
      "table plugin_extras holds 1 rows and has no PostgreSQL table",
      "column prompts.colour has no PostgreSQL column",
    ]);
    expect((await postgresCounts(pglite)).organizations).toBe(0);
    await sqlite.close();
  });

  it("fails, writing nothing, when a value does not fit its column", async () => {
    const sqlite = openStore({ file: ":memory:", secret: SECRET });
    const organization = await sqlite.organizations.create("acme", "team");
    // SQLite keeps a REAL in an INTEGER column; PostgreSQL's BIGINT cannot hold it.
    sqlite.db
      .prepare(
        `INSERT INTO files (id, organization_id, filename, purpose, mime, byte_size, sha256, created_at)
         VALUES ('file_1', ?, 'a.txt', 'kb', 'text/plain', 1.5, 'x', 1)`,
      )
      .run(organization.id);
    await expect(copyFromSqlite(sqlite.db, pglite)).rejects.toThrow(
      /files, column byte_size: number 1.5 does not fit PostgreSQL bigint/,
    );
    expect((await postgresCounts(pglite)).organizations).toBe(0);
    await sqlite.close();
  });
  it("a member's memory file and a dataset's random items read back the same after a copy (property)", async () => {
    const text = fc.string({ unit: "grapheme", maxLength: 40 });
    const item = fc.record({
      input: fc.jsonValue().filter((value) => value !== null),
      expectedOutput: fc.option(text),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          content: text,
          items: fc.array(item, { minLength: 1, maxLength: 5 }),
          plan: fc.constantFrom("free", "team", "business", "enterprise" as const),
        }),
        async ({ content, items, plan }) => {
          const sqlite = openStore({ file: ":memory:", secret: SECRET });
          const groundwork = createGroundwork({ store: sqlite });
          const admin = await groundwork.principal("acme", "admin");
          await sqlite.organizations.setPlan(admin.organizationId, plan);
          const { key } = await sqlite.apiKeys.create({
            organizationId: admin.organizationId,
            role: "member",
          });
          const principal = (await sqlite.apiKeys.authenticate(key)) as Principal;
          await groundwork.memory.write(principal, { command: "create", path: "/memories/a.md", content });
          const dataset = await groundwork.datasets.create(principal, { name: "d" });
          await groundwork.datasets.addItems(principal, dataset.id, {
            items: items.map((each) => ({
              input: each.input,
              ...(each.expectedOutput === null ? {} : { expectedOutput: each.expectedOutput }),
            })),
          });
          try {
            await copyFromSqlite(sqlite.db, pglite);
            // Not closed: the store would close the database the next run copies into.
            const copied = createGroundwork({
              store: await openPostgresStore({ client: pglite, secret: SECRET }),
            });
            expect(await copied.memory.read(principal, { path: "/memories/a.md" })).toEqual(
              await groundwork.memory.read(principal, { path: "/memories/a.md" }),
            );
            expect(await copied.datasets.listItems(principal, dataset.id, {}, all)).toEqual(
              await groundwork.datasets.listItems(principal, dataset.id, {}, all),
            );
            expect(await copied.store.organizations.get(principal.organizationId)).toEqual(
              await sqlite.organizations.get(principal.organizationId),
            );
          } finally {
            await sqlite.close();
            await emptyDatabase(pglite);
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
