/**
 * The contract of the knowledge-base storage ports (`KnowledgeStore`, `VectorIndex`,
 * `KeywordIndex`) and the writes that feed them, run against every store that implements them
 * (store-sqlite; store-postgres on PGlite with and without pgvector, and on a real server):
 * same records, same served set, same filters. Exact cosine neighbours are computed here, in
 * the test, as the oracle for the vector leg's recall.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { KnowledgeBaseConfig } from "../src/config.js";
import type {
  ChunkRecord,
  DocumentRecord,
  KeywordIndex,
  KnowledgeBaseRecord,
  KnowledgeStore,
  NewChunk,
  RevisionRecord,
  VectorIndex,
} from "../src/ports.js";
import { indexTerms, queryTerms, type TextSearchLanguage } from "../src/text-analysis.js";

type MaybePromise<T> = T | Promise<T>;

/** The writes a store offers beside the engine's port (store-sqlite's KnowledgeBaseStore names). */
export interface KnowledgeWrites extends KnowledgeStore {
  create(organizationId: string, config: KnowledgeBaseConfig): MaybePromise<KnowledgeBaseRecord>;
  acceptUpload(input: {
    knowledgeBase: KnowledgeBaseRecord;
    filename: string;
    mime: string;
    bytes: Uint8Array;
    metadata: Record<string, unknown>;
    apiKeyId: string | null;
  }): MaybePromise<{ document: DocumentRecord; revision: RevisionRecord }>;
  deleteDocument(knowledgeBaseId: string, documentId: string): MaybePromise<boolean>;
  resetForRetry(revisionId: string): MaybePromise<boolean>;
}

export interface KbBackend {
  store: KnowledgeWrites;
  vectors: VectorIndex;
  keywords: KeywordIndex;
  /** An organization knowledge bases may be created in (a fresh one per call). */
  organizationId: string;
}

export const baseConfig: KnowledgeBaseConfig = {
  name: "Handbook",
  slug: "handbook",
  description: null,
  embeddingProviderId: "builtin",
  embeddingModel: "hash-embedding-1536",
  embeddingDim: 64,
  chunkingStrategy: "FIXED",
  chunkSize: 100,
  chunkOverlap: 0,
  parentChunkSize: 1500,
  hybridSearchEnabled: true,
  rerankerProviderId: null,
  textSearchLanguage: "simple",
};

function fixed(texts: readonly string[]): NewChunk[] {
  return texts.map((text, position) => ({
    kind: "fixed" as const,
    parentPosition: null,
    position,
    text,
    tokenCount: text.split(" ").length,
    pageStart: position + 1,
    pageEnd: position + 1,
    headingPath: ["Intro", `Part ${position}`],
    textStart: position * 100,
    textEnd: position * 100 + text.length,
  }));
}

/** A deterministic unit-vector source (LCG), so every backend sees the same vectors. */
export function vectorSource(dim: number, seed = 1) {
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296 - 0.5;
  };
  return () => {
    const v = new Float32Array(dim).map(() => random());
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot; // unit vectors
}

/** Creates a knowledge base and helpers that upload, chunk, index and activate documents. */
async function fixture(backend: KbBackend, config: Partial<KnowledgeBaseConfig> = {}) {
  const { store, vectors, keywords } = backend;
  const kb = await store.create(backend.organizationId, { ...baseConfig, ...config });
  const nextVector = vectorSource(kb.embeddingDim);
  /** Uploads `name` (a new revision when it exists), chunks and indexes it; activation is the caller's. */
  const addRevision = async (
    name: string,
    texts: readonly string[],
    metadata: Record<string, unknown> = {},
  ) => {
    const { document, revision } = await store.acceptUpload({
      knowledgeBase: kb,
      filename: name,
      mime: "text/plain",
      bytes: new TextEncoder().encode(texts.join("\n")),
      metadata,
      apiKeyId: null,
    });
    const chunks = await store.replaceChunks(revision.id, fixed(texts));
    const entries = chunks.map((chunk) => ({ chunkId: chunk.id, vector: nextVector() }));
    await vectors.upsert(kb.id, entries);
    await keywords.add(
      kb.id,
      kb.textSearchLanguage,
      chunks.map((chunk) => ({
        chunkId: chunk.id,
        terms: indexTerms(chunk.text ?? "", kb.textSearchLanguage),
      })),
    );
    return { document, revision, chunks, entries };
  };
  const keywordSearch = async (
    text: string,
    options: {
      k?: number;
      documentIds?: readonly string[] | null;
      language?: TextSearchLanguage;
      kbId?: string;
    } = {},
  ) => {
    const language = options.language ?? kb.textSearchLanguage;
    const hits = await keywords.search({
      knowledgeBaseId: options.kbId ?? kb.id,
      k: options.k ?? 10,
      documentIds: options.documentIds ?? null,
      language,
      terms: queryTerms(text, language),
      text,
    });
    return hits.map((hit) => hit.chunkId);
  };
  const vectorSearch = async (
    vector: Float32Array,
    k: number,
    documentIds: readonly string[] | null = null,
  ) => (await vectors.search({ knowledgeBaseId: kb.id, k, documentIds, vector })).map((hit) => hit.chunkId);
  return { kb, addRevision, keywordSearch, vectorSearch, nextVector };
}

export interface ContractOptions {
  /** Runs of the property test (each writes a knowledge base). */
  propertyRuns?: number;
}

export function describeKnowledgeBaseContract(
  name: string,
  makeBackend: () => Promise<KbBackend>,
  options: ContractOptions = {},
): void {
  describe(`knowledge-base ports contract: ${name}`, () => {
    it("stores uploads as revisions of one document, with their bytes, metadata and status moves", async () => {
      const backend = await makeBackend();
      const { store } = backend;
      const { kb, addRevision } = await fixture(backend);
      expect(await store.getKnowledgeBase(kb.id)).toMatchObject({
        id: kb.id,
        embeddingDim: 64,
        configVersion: 1,
      });
      const first = await addRevision("guide.txt", ["alpha beta"], { team: "blue", tags: ["a", "b"] });
      expect(first.revision).toMatchObject({
        versionNo: 1,
        status: "PENDING",
        mime: "text/plain",
        byteSize: 10,
      });
      const source = await store.loadSource(first.revision.id);
      expect(new TextDecoder().decode(source?.bytes)).toBe("alpha beta");
      expect(source?.filename).toBe("guide.txt");
      const second = await addRevision("guide.txt", ["gamma"], { owner: "ann" });
      expect(second.document.id).toBe(first.document.id);
      expect(second.revision.versionNo).toBe(2);
      expect((await store.getDocument(first.document.id))?.metadata).toEqual({
        team: "blue",
        tags: ["a", "b"],
        owner: "ann",
      });
      // What the converter found never overrides what the upload said.
      await store.mergeDocumentMetadata(first.document.id, { team: "red", title: "Guide" });
      expect((await store.getDocument(first.document.id))?.metadata).toMatchObject({
        team: "blue",
        title: "Guide",
      });
      expect(await store.documentsMatching(kb.id, { team: "blue" })).toEqual([first.document.id]);
      expect(await store.documentsMatching(kb.id, { tags: "b" })).toEqual([first.document.id]);
      expect(await store.documentsMatching(kb.id, { tags: ["z", "a"] })).toEqual([first.document.id]);
      expect(await store.documentsMatching(kb.id, { team: "red" })).toEqual([]);
      expect(await store.setRevisionStatus(first.revision.id, "PARSING")).toBe(true);
      expect(await store.setRevisionStatus(first.revision.id, "ERROR", "parser failed")).toBe(true);
      expect(await store.getRevision(first.revision.id)).toMatchObject({
        status: "ERROR",
        error: "parser failed",
      });
      expect(await store.setRevisionStatus(first.revision.id, "EMBEDDING")).toBe(false); // no longer in progress
      expect(await store.resetForRetry(first.revision.id)).toBe(true);
      expect(await store.getRevision(first.revision.id)).toMatchObject({ status: "PENDING", error: null });
      expect(await store.indexedChunks(first.revision.id)).toEqual([]); // retried from scratch
      expect(await store.getRevision("kbv_missing")).toBeNull();
      expect(await store.documentsById([first.document.id, "kbd_missing"])).toHaveLength(1);
    });

    it("replaces chunks with their parents, pages, headings and offsets, and activates a revision once", async () => {
      const backend = await makeBackend();
      const { store } = backend;
      const { kb } = await fixture(backend);
      const { revision, document } = await store.acceptUpload({
        knowledgeBase: kb,
        filename: "h.txt",
        mime: "text/plain",
        bytes: new Uint8Array([1, 2, 3]),
        metadata: {},
        apiKeyId: "key_1",
      });
      expect(revision.apiKeyId).toBe("key_1");
      const chunks: NewChunk[] = [
        {
          kind: "parent",
          parentPosition: null,
          position: 0,
          text: "Parent text.",
          tokenCount: 2,
          pageStart: 1,
          pageEnd: 2,
          headingPath: ["A"],
          textStart: 0,
          textEnd: 12,
        },
        {
          kind: "child",
          parentPosition: 0,
          position: 1,
          text: "Parent",
          tokenCount: 1,
          pageStart: 1,
          pageEnd: 1,
          headingPath: ["A"],
          textStart: 0,
          textEnd: 6,
        },
        {
          kind: "child",
          parentPosition: 0,
          position: 2,
          text: "text.",
          tokenCount: 1,
          pageStart: 2,
          pageEnd: 2,
          headingPath: ["A", "B"],
          textStart: 7,
          textEnd: 12,
        },
      ];
      await store.replaceChunks(revision.id, chunks); // a restarted ingestion chunks again
      const stored = await store.replaceChunks(revision.id, chunks);
      expect(stored).toHaveLength(3);
      const parent = stored[0] as ChunkRecord;
      expect(parent).toMatchObject({
        kind: "parent",
        parentId: null,
        pageStart: 1,
        pageEnd: 2,
        headingPath: ["A"],
        textStart: 0,
        textEnd: 12,
      });
      expect(stored.slice(1).map((chunk) => chunk.parentId)).toEqual([parent.id, parent.id]);
      const indexed = await store.indexedChunks(revision.id);
      expect(indexed.map((chunk) => chunk.text)).toEqual(["Parent", "text."]);
      expect(indexed[1]).toMatchObject({
        documentId: document.id,
        revisionId: revision.id,
        knowledgeBaseId: kb.id,
        headingPath: ["A", "B"],
        position: 2,
      });
      const byId = await store.chunksById(kb.id, [parent.id, "chk_missing"]);
      expect(byId.map((chunk) => chunk.id)).toEqual([parent.id]);
      expect(await store.chunksById("kb_other", [parent.id])).toEqual([]);
      expect(await store.activateRevision(revision.id)).toBe(true);
      expect(await store.activateRevision(revision.id)).toBe(false);
      expect((await store.getDocument(document.id))?.servingRevisionId).toBe(revision.id);
      expect((await store.getRevision(revision.id))?.status).toBe("READY");
      expect(await store.loadSource(revision.id)).toBeNull(); // the upload goes once served
    });

    it("keyword leg: any term matches, only served chunks, per language, per knowledge base, with filters", async () => {
      const backend = await makeBackend();
      const { store } = backend;
      const { kb, addRevision, keywordSearch } = await fixture(backend);
      const a = await addRevision("a.txt", ["quick brown fox", "lazy dog sleeps", "nothing here"]);
      const b = await addRevision("b.txt", ["a fox and a dog"]);
      expect(await keywordSearch("fox")).toEqual([]); // nothing served yet
      await store.activateRevision(a.revision.id);
      await store.activateRevision(b.revision.id);
      const [aFox, aDog] = a.chunks;
      const [bBoth] = b.chunks;
      expect(new Set(await keywordSearch("fox"))).toEqual(new Set([aFox?.id, bBoth?.id]));
      // Any term: the chunk holding both ranks first.
      const either = await keywordSearch("fox dog");
      expect(either[0]).toBe(bBoth?.id);
      expect(new Set(either)).toEqual(new Set([aFox?.id, aDog?.id, bBoth?.id]));
      expect(await keywordSearch("fox dog", { k: 1 })).toHaveLength(1);
      expect(await keywordSearch("fox", { documentIds: [a.document.id] })).toEqual([aFox?.id]);
      expect(await keywordSearch('"fox OR (dog) AND -x*')).toHaveLength(3); // syntax is only text
      expect(await keywordSearch("fox", { language: "german" })).toEqual([]); // no rows of that language
      const other = await store.create(backend.organizationId, {
        ...baseConfig,
        slug: "other",
        name: "other",
      });
      expect(await keywordSearch("fox", { kbId: other.id })).toEqual([]);
      // A newer revision replaces the served chunks; a deleted document leaves the answers.
      const a2 = await addRevision("a.txt", ["red fox"]);
      expect(await store.activateRevision(a2.revision.id)).toBe(true);
      expect(new Set(await keywordSearch("fox"))).toEqual(new Set([a2.chunks[0]?.id, bBoth?.id]));
      expect(await keywordSearch("lazy")).toEqual([]);
      expect(await store.deleteDocument(kb.id, b.document.id)).toBe(true);
      expect(await keywordSearch("fox dog")).toEqual([a2.chunks[0]?.id]);
      const withdrawn = await store.chunksById(kb.id, [bBoth?.id ?? ""]);
      expect(withdrawn[0]?.text).toBeNull(); // text withdrawn, the chunk kept for citations
    });

    it("keyword leg: a named language joins inflections of one word", async () => {
      const backend = await makeBackend();
      const { store } = backend;
      const { addRevision, keywordSearch } = await fixture(backend, { textSearchLanguage: "english" });
      const doc = await addRevision("e.txt", ["The foxes were jumping over fences", "Databases store rows"]);
      await store.activateRevision(doc.revision.id);
      expect(await keywordSearch("fox jumped")).toEqual([doc.chunks[0]?.id]);
      expect(await keywordSearch("database")).toEqual([doc.chunks[1]?.id]);
      expect(await keywordSearch("fence")).toEqual([doc.chunks[0]?.id]);
    });

    it("vector leg: serves only activated revisions, filters documents, and finds the exact neighbours (recall@8 ≥ 0.98)", async () => {
      const backend = await makeBackend();
      const { store, vectors } = backend;
      const { kb, addRevision, vectorSearch, nextVector } = await fixture(backend);
      const texts = (prefix: string) => Array.from({ length: 300 }, (_, i) => `${prefix} ${i}`);
      const a = await addRevision("a.txt", texts("a"));
      const b = await addRevision("b.txt", texts("b"));
      expect(await vectorSearch(nextVector(), 8)).toEqual([]); // nothing served before activation
      expect((await vectors.embeddedChunkIds(a.revision.id)).size).toBe(300);
      for (const each of [a, b]) expect(await store.activateRevision(each.revision.id)).toBe(true);
      const all = [...a.entries, ...b.entries];
      let agree = 0;
      for (let i = 0; i < 20; i++) {
        const q = nextVector();
        const exact = [...all]
          .sort((x, y) => cosine(y.vector, q) - cosine(x.vector, q))
          .slice(0, 8)
          .map((entry) => entry.chunkId);
        const found = await vectorSearch(q, 8);
        expect(found).toHaveLength(8);
        agree += found.filter((id) => exact.includes(id)).length;
      }
      expect(agree / (20 * 8)).toBeGreaterThanOrEqual(0.98);
      const own = a.entries[3];
      if (own === undefined) throw new Error("setup");
      expect((await vectorSearch(own.vector, 1))[0]).toBe(own.chunkId);
      const bIds = new Set(b.entries.map((entry) => entry.chunkId));
      const onlyB = await vectorSearch(own.vector, 20, [b.document.id]);
      expect(onlyB).toHaveLength(20);
      expect(onlyB.every((id) => bIds.has(id))).toBe(true);
      // A replaced revision is never answered; a deleted document leaves the answers.
      const a2 = await addRevision("a.txt", texts("a2").slice(0, 30));
      await store.activateRevision(a2.revision.id);
      const oldIds = new Set(a.entries.map((entry) => entry.chunkId));
      const everything = await vectorSearch(own.vector, 1000);
      expect(everything).toHaveLength(330);
      expect(everything.some((id) => oldIds.has(id))).toBe(false);
      const replacement = a2.entries[5];
      if (replacement === undefined) throw new Error("setup");
      expect((await vectorSearch(replacement.vector, 1))[0]).toBe(replacement.chunkId);
      await store.deleteDocument(kb.id, b.document.id);
      const remaining = await vectorSearch(own.vector, 1000);
      expect(remaining).toHaveLength(30);
      expect(remaining.some((id) => bIds.has(id))).toBe(false);
    });

    it("property: searches answer at most k chunks, all served, of the knowledge base, in the filter", async () => {
      const backend = await makeBackend();
      const { store } = backend;
      const words = ["alpha", "beta", "gamma", "delta"];
      let round = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              name: fc.constantFrom("a.txt", "b.txt", "c.txt"),
              texts: fc.array(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }), {
                minLength: 1,
                maxLength: 4,
              }),
              activate: fc.boolean(),
              remove: fc.boolean(),
            }),
            { minLength: 1, maxLength: 5 },
          ),
          fc.integer({ min: 1, max: 6 }),
          fc.constantFrom(...words),
          fc.boolean(),
          async (steps, k, word, filtered) => {
            round++;
            const f = await fixture(backend, { slug: `p${round}`, name: `p${round}` });
            const other = await fixture(backend, { slug: `q${round}`, name: `q${round}` });
            await other
              .addRevision("a.txt", [words.join(" ")])
              .then((r) => store.activateRevision(r.revision.id));
            for (const step of steps) {
              const added = await f.addRevision(
                step.name,
                step.texts.map((t) => t.join(" ")),
              );
              if (step.activate) await store.activateRevision(added.revision.id);
              if (step.remove) await store.deleteDocument(f.kb.id, added.document.id);
            }
            // The served set, from the store's own records.
            const live = await store.documentsMatching(f.kb.id, {});
            const liveDocs = await store.documentsById(live);
            const servingRevisions = new Set(
              liveDocs.map((doc) => doc.servingRevisionId).filter((id) => id !== null),
            );
            const documentIds = filtered ? live.slice(0, 1) : null;
            const check = async (ids: string[]) => {
              expect(ids.length).toBeLessThanOrEqual(k);
              expect(new Set(ids).size).toBe(ids.length);
              const chunks = await store.chunksById(f.kb.id, ids);
              expect(chunks).toHaveLength(ids.length); // none of another knowledge base
              for (const chunk of chunks) {
                expect(servingRevisions.has(chunk.revisionId)).toBe(true);
                if (documentIds !== null) expect(documentIds).toContain(chunk.documentId);
              }
              return chunks;
            };
            const keywordHits = await check(await f.keywordSearch(word, { k, documentIds }));
            await check(await f.vectorSearch(f.nextVector(), k, documentIds));
            // Completeness of the keyword leg: every served chunk holding the word is found (up to k).
            const holding = (
              await Promise.all([...servingRevisions].map(async (id) => store.indexedChunks(id as string)))
            )
              .flat()
              .filter(
                (chunk) =>
                  (documentIds === null || documentIds.includes(chunk.documentId)) &&
                  (chunk.text ?? "").split(" ").includes(word),
              );
            expect(keywordHits.length).toBe(Math.min(k, holding.length));
          },
        ),
        { numRuns: options.propertyRuns ?? 8 },
      );
    });
  });
}
