import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { vectorKnowledgeBase } from "../test/knowledge-base-fixture.js";
import { SqliteVectorIndex } from "./kb-vector-index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The fixture's knowledge base, each document served as soon as it is written. */
function setup(file: string) {
  const fixture = vectorKnowledgeBase(file, 48);
  const addDocument = (name: string, rows: number) => {
    const written = fixture.addDocument(name, rows);
    fixture.store.knowledgeBases.activateRevision(written.revision.id);
    return written;
  };
  return { ...fixture, addDocument };
}

function databaseFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "gw-warm-"));
  dirs.push(dir);
  return join(dir, "groundwork.db");
}

const options = { exactBelow: 10, minCandidates: 40, oversample: 5, maxScanDims: 8, readerFrom: 0 };

describe("warming the vector index (packs read on a worker thread)", () => {
  it("loads what a first search loads, so that search loads nothing more", async () => {
    const { store, kb, vector, addDocument } = setup(databaseFile());
    addDocument("a.txt", 150);
    addDocument("b.txt", 90);
    const c = addDocument("c.txt", 60);
    // A served revision without a pack (served before migration 30): the main thread packs it.
    store.db.prepare("DELETE FROM kb_vector_packs WHERE revision_id = ?").run(c.revision.id);
    const warmed = new SqliteVectorIndex(store.db, options);
    await warmed.warm(kb.id);
    expect(warmed.columnBuilds).toBe(1);
    expect(warmed.readerLoads).toBe(1);
    const lazy = new SqliteVectorIndex(store.db, options);
    for (let i = 0; i < 10; i++) {
      const query = { knowledgeBaseId: kb.id, k: 8, documentIds: null, vector: vector() };
      expect(warmed.search(query)).toEqual(lazy.search(query));
      expect(warmed.search({ ...query, documentIds: [c.document.id] })).toEqual(
        lazy.search({ ...query, documentIds: [c.document.id] }),
      );
    }
    expect(warmed.columnBuilds).toBe(1); // the searches used the warmed rows
    expect(store.db.prepare("SELECT COUNT(*) FROM kb_vector_packs").pluck().get()).toBe(3);
    store.close();
  });

  it("is patched by the next search when the served set moved after the reader's snapshot", async () => {
    const { store, kb, vector, addDocument } = setup(databaseFile());
    addDocument("a.txt", 150);
    const warmed = new SqliteVectorIndex(store.db, options);
    const warming = warmed.warm(kb.id);
    const b = addDocument("b.txt", 90); // may land before or after the reader's snapshot
    await warming;
    const lazy = new SqliteVectorIndex(store.db, options);
    for (const entry of [vector(), vector()]) {
      const query = { knowledgeBaseId: kb.id, k: 8, documentIds: null, vector: entry };
      expect(warmed.search(query)).toEqual(lazy.search(query));
    }
    const onlyB = { knowledgeBaseId: kb.id, k: 3, documentIds: [b.document.id], vector: vector() };
    expect(warmed.search(onlyB)).toHaveLength(3);
    expect(warmed.columnBuilds).toBe(1); // patched, not rebuilt
    expect(warmed.readerLoads).toBe(1);
    store.close();
  });

  it("keeps rows a search loaded meanwhile, and leaves small knowledge bases to exact search", async () => {
    const { store, kb, vector, addDocument } = setup(databaseFile());
    addDocument("a.txt", 8);
    const small = new SqliteVectorIndex(store.db, options);
    await small.warm(kb.id);
    expect(small.columnBuilds).toBe(0); // 8 ≤ exactBelow: searched exactly, nothing held
    expect(small.readerLoads).toBe(1);
    addDocument("b.txt", 100);
    const index = new SqliteVectorIndex(store.db, options);
    const warming = index.warm(kb.id);
    const query = { knowledgeBaseId: kb.id, k: 5, documentIds: null, vector: vector() };
    const first = index.search(query); // loads on this thread before the reader is done
    await warming;
    expect(index.columnBuilds).toBe(1);
    expect(index.readerLoads).toBe(0); // the search's rows were kept
    expect(index.search(query)).toEqual(first);
    store.close();
  });

  it("loads on the calling thread for an in-memory database or below `readerFrom` packed rows", async () => {
    const { store, kb, vector, addDocument } = setup(":memory:");
    addDocument("a.txt", 40);
    const index = new SqliteVectorIndex(store.db, options);
    await index.warm(kb.id);
    expect(index.columnBuilds).toBe(1);
    expect(index.readerLoads).toBe(0);
    const onFile = setup(databaseFile());
    onFile.addDocument("a.txt", 40);
    const fewRows = new SqliteVectorIndex(onFile.store.db, { ...options, readerFrom: 41 });
    await fewRows.warm(onFile.kb.id);
    expect([fewRows.columnBuilds, fewRows.readerLoads]).toEqual([1, 0]);
    const enoughRows = new SqliteVectorIndex(onFile.store.db, { ...options, readerFrom: 40 });
    await enoughRows.warm(onFile.kb.id);
    expect([enoughRows.columnBuilds, enoughRows.readerLoads]).toEqual([1, 1]);
    onFile.store.close();
    const query = { knowledgeBaseId: kb.id, k: 4, documentIds: null, vector: vector() };
    expect(index.search(query)).toEqual(new SqliteVectorIndex(store.db, options).search(query));
    expect(index.columnBuilds).toBe(1);
    store.close();
  });
});
