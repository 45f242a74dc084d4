import { int8Code } from "@groundwork/kb";
import { describe, expect, it } from "vitest";
import { knowledgeBaseConfig } from "../test/knowledge-base-fixture.js";
import { SqliteVectorIndex } from "./kb-vector-index.js";
import { openStore } from "./open-store.js";

function setup(count: number) {
  const store = openStore({ file: ":memory:" });
  const org = store.organizations.create("acme", "enterprise");
  const kb = store.knowledgeBases.create(org.id, knowledgeBaseConfig("kb"));
  const upload = (name: string) =>
    store.knowledgeBases.acceptUpload({
      knowledgeBase: kb,
      filename: name,
      mime: "text/plain",
      bytes: new TextEncoder().encode(name),
      metadata: { name },
      apiKeyId: null,
    });
  let state = 1;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296 - 0.5;
  };
  const vector = () => {
    const v = new Float32Array(64).map(() => random());
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  const addDocument = (name: string, rows: number) => {
    const { revision, document } = upload(name);
    const chunks = store.knowledgeBases.replaceChunks(
      revision.id,
      Array.from({ length: rows }, (_, position) => ({
        kind: "fixed" as const,
        parentPosition: null,
        position,
        text: `${name} ${position}`,
        tokenCount: 3,
        pageStart: null,
        pageEnd: null,
        headingPath: [],
      })),
    );
    const entries = chunks.map((chunk) => ({ chunkId: chunk.id, vector: vector() }));
    store.kbVectors.upsert(kb.id, entries);
    return { revision, document, entries };
  };
  const docs = ["a.txt", "b.txt"].map((name) => addDocument(name, count / 2));
  return { store, kb, docs, vector, addDocument };
}

describe("int8 codes", () => {
  it("quantize each vector with its own range", () => {
    const code = int8Code(Float32Array.from([0.5, -0.25, 0, 0.125]));
    expect(code.readFloatLE(0)).toBeCloseTo(0.5 / 127, 8);
    expect([...new Int8Array(code.buffer, code.byteOffset + 8, 4)]).toEqual([127, -63, 0, 32]); // -63.5 rounds up
  });
});

describe("vector index", () => {
  it("serves only activated revisions, and the approximate path matches exact search", () => {
    const { store, kb, docs, vector } = setup(600);
    const approximate = new SqliteVectorIndex(store.db, { exactBelow: 10, minCandidates: 40, oversample: 5 });
    const query = { knowledgeBaseId: kb.id, k: 8, documentIds: null, vector: vector() };
    expect(approximate.search(query)).toEqual([]); // nothing is served before activation
    for (const { revision } of docs) expect(store.knowledgeBases.activateRevision(revision.id)).toBe(true);
    let agree = 0;
    for (let i = 0; i < 20; i++) {
      const q = { ...query, vector: vector() };
      const exact = store.kbVectors.exactSearch(q).map((hit) => hit.chunkId);
      expect(exact).toHaveLength(8);
      const approx = approximate.search(q).map((hit) => hit.chunkId);
      agree += approx.filter((id) => exact.includes(id)).length;
    }
    expect(agree / (20 * 8)).toBeGreaterThanOrEqual(0.98);
  });

  it("dense queries go through sign bits and still find the exact neighbours after rescoring", () => {
    const { store, kb, docs, vector } = setup(600);
    for (const { revision } of docs) store.knowledgeBases.activateRevision(revision.id);
    // maxScanDims 8: every 64-wide random query counts as dense.
    const signs = new SqliteVectorIndex(store.db, {
      exactBelow: 10,
      maxScanDims: 8,
      minCandidates: 100,
      oversample: 5,
    });
    let agree = 0;
    for (let i = 0; i < 20; i++) {
      const q = { knowledgeBaseId: kb.id, k: 8, documentIds: null, vector: vector() };
      const exact = store.kbVectors.exactSearch(q).map((hit) => hit.chunkId);
      agree += signs.search(q).filter((hit) => exact.includes(hit.chunkId)).length;
    }
    expect(agree / (20 * 8)).toBeGreaterThanOrEqual(0.95);
  });

  it("filters by document and reloads its columns when the served set changes", () => {
    const { store, kb, docs, vector } = setup(200);
    const approximate = new SqliteVectorIndex(store.db, { exactBelow: 10 });
    for (const { revision } of docs) store.knowledgeBases.activateRevision(revision.id);
    const [a, b] = docs;
    if (a === undefined || b === undefined) throw new Error("setup");
    const onlyB = approximate.search({
      knowledgeBaseId: kb.id,
      k: 20,
      documentIds: [b.document.id],
      vector: vector(),
    });
    const bIds = new Set(b.entries.map((e) => e.chunkId));
    expect(onlyB).toHaveLength(20);
    expect(onlyB.every((hit) => bIds.has(hit.chunkId))).toBe(true);
    // Its own vector is the nearest to itself.
    const own = a.entries[3];
    if (own === undefined) throw new Error("setup");
    expect(
      approximate.search({ knowledgeBaseId: kb.id, k: 1, documentIds: null, vector: own.vector })[0]?.chunkId,
    ).toBe(own.chunkId);
    store.knowledgeBases.deleteDocument(kb.id, a.document.id);
    const after = approximate.search({
      knowledgeBaseId: kb.id,
      k: 100,
      documentIds: null,
      vector: own.vector,
    });
    expect(after.every((hit) => bIds.has(hit.chunkId))).toBe(true);
  });
});

describe("vector index after small changes", () => {
  it("patches its columns instead of rebuilding them, and still serves exactly the served rows", () => {
    const { store, kb, docs, addDocument } = setup(200);
    const index = new SqliteVectorIndex(store.db, { exactBelow: 10 });
    for (const { revision } of docs) store.knowledgeBases.activateRevision(revision.id);
    const nearest = (vector: Float32Array, k = 1) =>
      index.search({ knowledgeBaseId: kb.id, k, documentIds: null, vector }).map((hit) => hit.chunkId);
    const first = docs[0]?.entries[0];
    if (first === undefined) throw new Error("setup");
    expect(nearest(first.vector)).toEqual([first.chunkId]);
    expect(index.columnBuilds).toBe(1);

    // A new document (10 % of the rows): found at once, no rebuild.
    const c = addDocument("c.txt", 20);
    store.knowledgeBases.activateRevision(c.revision.id);
    const own = c.entries[7];
    if (own === undefined) throw new Error("setup");
    expect(nearest(own.vector)).toEqual([own.chunkId]);
    expect(
      index.search({ knowledgeBaseId: kb.id, k: 1, documentIds: [c.document.id], vector: own.vector }),
    ).toHaveLength(1);
    expect(index.columnBuilds).toBe(1);

    // Its second revision replaces it: the old rows are never answered, the new ones are.
    const c2 = addDocument("c.txt", 20);
    expect(c2.document.id).toBe(c.document.id);
    store.knowledgeBases.activateRevision(c2.revision.id);
    const oldIds = new Set(c.entries.map((entry) => entry.chunkId));
    const everything = nearest(own.vector, 500);
    expect(everything).toHaveLength(220);
    expect(everything.some((id) => oldIds.has(id))).toBe(false);
    const replacement = c2.entries[3];
    if (replacement === undefined) throw new Error("setup");
    expect(nearest(replacement.vector)).toEqual([replacement.chunkId]);
    expect(index.columnBuilds).toBe(1);

    // Deleting it drops its rows from the answers, still without a rebuild.
    store.knowledgeBases.deleteDocument(kb.id, c.document.id);
    const newIds = new Set(c2.entries.map((entry) => entry.chunkId));
    const remaining = nearest(replacement.vector, 500);
    expect(remaining).toHaveLength(200);
    expect(remaining.some((id) => newIds.has(id))).toBe(false);
    expect(index.columnBuilds).toBe(1);

    // A large change (a whole document of 100 rows replaced) rebuilds the columns.
    const b2 = addDocument("b.txt", 100);
    store.knowledgeBases.activateRevision(b2.revision.id);
    expect(nearest(own.vector, 500)).toHaveLength(200);
    expect(index.columnBuilds).toBe(2);
  });
});

describe("keyword index", () => {
  it("matches any term, per language, only for served chunks", () => {
    const { store, kb, docs } = setup(4);
    const [a] = docs;
    if (a === undefined) throw new Error("setup");
    store.kbKeywords.add(kb.id, "simple", [
      { chunkId: a.entries[0]?.chunkId ?? "", terms: "quick brown fox" },
    ]);
    store.kbKeywords.add(kb.id, "english", [
      { chunkId: a.entries[0]?.chunkId ?? "", terms: "quick brown fox" },
    ]);
    const query = {
      knowledgeBaseId: kb.id,
      k: 5,
      documentIds: null,
      language: "simple" as const,
      terms: ["fox", '"odd'],
    };
    expect(store.kbKeywords.search(query)).toEqual([]);
    store.knowledgeBases.activateRevision(a.revision.id);
    expect(store.kbKeywords.search(query).map((hit) => hit.chunkId)).toEqual([a.entries[0]?.chunkId]);
    expect(store.kbKeywords.search({ ...query, language: "german" })).toEqual([]);
    // Re-adding replaces the row instead of duplicating it.
    store.kbKeywords.add(kb.id, "simple", [{ chunkId: a.entries[0]?.chunkId ?? "", terms: "lazy dog" }]);
    expect(store.kbKeywords.search(query)).toEqual([]);
    expect(store.kbKeywords.search({ ...query, terms: ["dog"] })).toHaveLength(1);
  });
});

describe("keyword scope", () => {
  it("ranks only the knowledge base's own rows and widens past rows it must skip", () => {
    const first = setup(40);
    const store = first.store;
    const other = store.knowledgeBases.create(first.kb.organizationId, {
      ...first.kb,
      slug: "other",
      name: "other",
    });
    const [a, b] = first.docs;
    if (a === undefined || b === undefined) throw new Error("setup");
    for (const { revision } of first.docs) store.knowledgeBases.activateRevision(revision.id);
    // Many rows of document a rank above the single row of document b.
    store.kbKeywords.add(
      first.kb.id,
      "simple",
      a.entries.map((entry) => ({ chunkId: entry.chunkId, terms: "shared shared shared" })),
    );
    store.kbKeywords.add(first.kb.id, "simple", [
      { chunkId: b.entries[0]?.chunkId ?? "", terms: "shared filler words here" },
    ]);
    const base = { knowledgeBaseId: first.kb.id, k: 5, language: "simple" as const, terms: ["shared"] };
    expect(store.kbKeywords.search({ ...base, documentIds: null })).toHaveLength(5);
    const onlyB = store.kbKeywords.search({ ...base, documentIds: [b.document.id] });
    expect(onlyB.map((hit) => hit.chunkId)).toEqual([b.entries[0]?.chunkId]);
    // Another knowledge base sees none of them.
    expect(store.kbKeywords.search({ ...base, knowledgeBaseId: other.id, documentIds: null })).toEqual([]);
    // Dropping a language removes exactly that knowledge base's rows of that language.
    store.kbKeywords.add(first.kb.id, "english", [{ chunkId: b.entries[1]?.chunkId ?? "", terms: "shared" }]);
    store.knowledgeBases.update(first.kb.organizationId, first.kb.id, { ...first.kb }, "english");
    store.knowledgeBases.update(first.kb.organizationId, first.kb.id, { ...first.kb }, null);
    expect(store.kbKeywords.search({ ...base, language: "english", documentIds: null })).toEqual([]);
    expect(store.kbKeywords.search({ ...base, documentIds: null })).toHaveLength(5);
  });
});
