import { describe, expect, it } from "vitest";
import { vectorKnowledgeBase } from "../test/knowledge-base-fixture.js";
import { SqliteVectorIndex } from "./kb-vector-index.js";

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
});
