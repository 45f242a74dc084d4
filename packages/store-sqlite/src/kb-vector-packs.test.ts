import { int8Code, type PackParts, packRows } from "@groundwork/kb";
import { describe, expect, it } from "vitest";
import { vectorKnowledgeBase } from "../test/knowledge-base-fixture.js";
import { SqliteVectorIndex } from "./kb-vector-index.js";
import { migrations } from "./migrations/index.js";
import { runMigrations } from "./run-migrations.js";

function setup() {
  const { store, kb, vector, addDocument } = vectorKnowledgeBase();
  const packs = () =>
    store.db
      .prepare("SELECT revision_id, row_count FROM kb_vector_packs ORDER BY revision_id")
      .all() as Array<{
      revision_id: string;
      row_count: number;
    }>;
  return { store, kb, vector, addDocument, packs };
}

const options = { exactBelow: 10, minCandidates: 40, oversample: 5, maxScanDims: 8 };

describe("vector packs (migration 30)", () => {
  it("are written when a revision is served, dropped with its rows, and load what the rows load", () => {
    const { store, kb, vector, addDocument, packs } = setup();
    const a = addDocument("a.txt", 150);
    const b = addDocument("b.txt", 90);
    expect(packs()).toEqual([]); // nothing packed before the switch
    store.knowledgeBases.activateRevision(a.revision.id);
    store.knowledgeBases.activateRevision(b.revision.id);
    expect(
      packs()
        .map((p) => p.row_count)
        .sort(),
    ).toEqual([150, 90].sort());

    const fromPacks = new SqliteVectorIndex(store.db, options);
    const fromRows = new SqliteVectorIndex(store.db, { ...options, packs: false });
    for (let i = 0; i < 10; i++) {
      const query = { knowledgeBaseId: kb.id, k: 8, documentIds: null, vector: vector() };
      expect(fromPacks.search(query)).toEqual(fromRows.search(query));
    }

    // A new revision of a: its pack replaces the old one's, which goes with the old rows.
    const { revision: next } = store.knowledgeBases.acceptUpload({
      knowledgeBase: kb,
      filename: "a.txt",
      mime: "text/plain",
      bytes: new TextEncoder().encode("a2"),
      metadata: {},
      apiKeyId: null,
    });
    const chunks = store.knowledgeBases.replaceChunks(next.id, [
      {
        kind: "fixed",
        parentPosition: null,
        position: 0,
        text: "a2",
        tokenCount: 1,
        pageStart: null,
        pageEnd: null,
        headingPath: [],
      },
    ]);
    store.kbVectors.upsert(kb.id, [{ chunkId: chunks[0]?.id ?? "", vector: vector() }]);
    store.knowledgeBases.activateRevision(next.id);
    expect(
      packs()
        .map((p) => p.revision_id)
        .sort(),
    ).toEqual([b.revision.id, next.id].sort());
    store.knowledgeBases.deleteDocument(kb.id, b.document.id);
    expect(packs().map((p) => p.revision_id)).toEqual([next.id]);
    store.knowledgeBases.softDelete(kb.organizationId, kb.id);
    expect(packs()).toEqual([]);
  });

  it("are dropped when rows of their revision are written again, and remade by the next load", () => {
    const { store, kb, vector, addDocument, packs } = setup();
    const a = addDocument("a.txt", 120);
    store.knowledgeBases.activateRevision(a.revision.id);
    expect(packs()).toHaveLength(1);
    // A late write to a served revision (a duplicate job): the pack no longer matches the rows.
    const replaced = a.chunks.slice(0, 5).map((chunk) => ({ chunkId: chunk.id, vector: vector() }));
    store.kbVectors.upsert(kb.id, replaced);
    expect(packs()).toEqual([]);
    const index = new SqliteVectorIndex(store.db, options);
    const fromRows = new SqliteVectorIndex(store.db, { ...options, packs: false });
    for (const entry of replaced) {
      const query = { knowledgeBaseId: kb.id, k: 1, documentIds: null, vector: entry.vector };
      expect(index.search(query)[0]?.chunkId).toBe(entry.chunkId);
      expect(index.search(query)).toEqual(fromRows.search(query));
    }
    expect(packs()).toEqual([{ revision_id: a.revision.id, row_count: 120 }]);
    // A served revision found without a pack (served before migration 30) is packed the same way.
    store.db.prepare("DELETE FROM kb_vector_packs").run();
    const reopened = new SqliteVectorIndex(store.db, options);
    const query = { knowledgeBaseId: kb.id, k: 8, documentIds: null, vector: vector() };
    expect(reopened.search(query)).toEqual(fromRows.search(query));
    expect(packs()).toHaveLength(1);
  });

  it("written as one BLOB before migration 32 are split into head and codes by it", () => {
    const { store, kb, vector, addDocument } = setup();
    const widths = [64, 300]; // one and two 256-bit sign blocks
    const docs = [addDocument("a.txt", 150), addDocument("b.txt", 90)];
    for (const { revision } of docs) store.knowledgeBases.activateRevision(revision.id);
    const stored = store.db
      .prepare("SELECT revision_id, knowledge_base_id, row_count, head, codes FROM kb_vector_packs")
      .all() as Array<{
      revision_id: string;
      knowledge_base_id: string;
      row_count: number;
      head: Buffer;
      codes: Buffer;
    }>;
    // A pack of a wider revision too, and an empty one: the split reads each pack's own width.
    const wide = packRows(
      Array.from(
        { length: 3 },
        (_, i) =>
          [
            i + 1,
            int8Code(Float32Array.from({ length: widths[1] as number }, (_, j) => Math.sin(i + j))),
          ] as [number, Buffer],
      ),
    ) as PackParts;
    const empty = packRows([]) as PackParts;
    // Their revisions (not served: the split alone is looked at).
    const [wideId, emptyId] = [addDocument("c.txt", 1), addDocument("d.txt", 1)].map(
      (doc) => doc.revision.id,
    );
    // The table as migration 30 made it, with the same packs as single BLOBs.
    store.db.exec(`DROP TABLE kb_vector_packs;
      CREATE TABLE kb_vector_packs (revision_id TEXT PRIMARY KEY, knowledge_base_id TEXT NOT NULL,
        row_count INTEGER NOT NULL, pack BLOB NOT NULL);
      DELETE FROM schema_migrations WHERE version >= 32;`);
    const insert = store.db.prepare("INSERT INTO kb_vector_packs VALUES (?, ?, ?, ?)");
    for (const row of stored)
      insert.run(row.revision_id, row.knowledge_base_id, row.row_count, Buffer.concat([row.head, row.codes]));
    insert.run(wideId, kb.id, 3, Buffer.concat([wide.head, Buffer.from(wide.codes.buffer)]));
    insert.run(emptyId, kb.id, 0, Buffer.from(empty.head));
    // Migration 32 alone (the later ones already ran on this store).
    expect(
      runMigrations(
        store.db,
        migrations.filter((migration) => migration.version === 32),
      ),
    ).toEqual([32]);
    const split = (id: string) =>
      store.db.prepare("SELECT head, codes FROM kb_vector_packs WHERE revision_id = ?").get(id) as {
        head: Buffer;
        codes: Buffer;
      };
    for (const row of stored) expect(split(row.revision_id)).toEqual({ head: row.head, codes: row.codes });
    expect(split(wideId as string)).toEqual({
      head: Buffer.from(wide.head),
      codes: Buffer.from(wide.codes.buffer),
    });
    expect(split(emptyId as string)).toEqual({ head: Buffer.from(empty.head), codes: Buffer.alloc(0) });
    const fromPacks = new SqliteVectorIndex(store.db, options);
    const fromRows = new SqliteVectorIndex(store.db, { ...options, packs: false });
    for (let i = 0; i < 5; i++) {
      const query = { knowledgeBaseId: kb.id, k: 8, documentIds: null, vector: vector() };
      expect(fromPacks.search(query)).toEqual(fromRows.search(query));
    }
    expect(widths[0]).toBe(vector().length);
  });
});
