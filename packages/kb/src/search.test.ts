import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  ChunkRecord,
  DocumentRecord,
  KeywordIndex,
  KnowledgeBaseRecord,
  KnowledgeStore,
  VectorIndex,
} from "./ports.js";
import { searchKnowledgeBases } from "./search.js";

const KB: KnowledgeBaseRecord = {
  id: "kb_1",
  organizationId: "org_1",
  name: "Handbook",
  slug: "handbook",
  description: null,
  embeddingProviderId: "builtin",
  embeddingModel: "hash-embedding-1536",
  embeddingDim: 4,
  hybridSearchEnabled: true,
  rerankerProviderId: null,
  textSearchLanguage: "simple",
  chunkingStrategy: "FIXED",
  chunkSize: 200,
  chunkOverlap: 0,
  parentChunkSize: 1500,
  pendingTextSearchLanguage: null,
  configVersion: 1,
  createdAt: 0,
  updatedAt: 0,
  deletedAt: null,
};

/** One document per chunk id; `children` maps a parent passage to its child chunks. */
function corpus(ids: readonly string[], children: Record<string, string[]> = {}) {
  const chunks = new Map<string, ChunkRecord>();
  const documents = new Map<string, DocumentRecord>();
  const add = (id: string, parentId: string | null, documentId: string) => {
    chunks.set(id, {
      id,
      knowledgeBaseId: KB.id,
      documentId,
      revisionId: `rev_${documentId}`,
      kind: parentId === null ? "fixed" : "child",
      parentId,
      position: 0,
      text: `text of ${id}.`,
      pageStart: null,
      pageEnd: null,
      headingPath: [],
    });
  };
  for (const id of ids) {
    add(id, null, id);
    documents.set(id, {
      id,
      knowledgeBaseId: KB.id,
      organizationId: KB.organizationId,
      name: `${id}.txt`,
      metadata: {},
      servingRevisionId: `rev_${id}`,
      latestRevisionId: `rev_${id}`,
      createdAt: 0,
      updatedAt: 0,
      deletedAt: null,
    });
  }
  for (const [parent, kids] of Object.entries(children)) {
    const parentChunk = chunks.get(parent);
    if (parentChunk !== undefined) parentChunk.kind = "parent";
    for (const kid of kids) add(kid, parent, parent);
  }
  const unused = () => {
    throw new Error("not used by search");
  };
  const store: KnowledgeStore = {
    getKnowledgeBase: unused,
    getRevision: unused,
    getDocument: unused,
    setRevisionStatus: unused,
    loadSource: unused,
    mergeDocumentMetadata: unused,
    replaceChunks: unused,
    indexedChunks: unused,
    activateRevision: unused,
    chunksById: (_kb, wanted) => wanted.flatMap((id) => chunks.get(id) ?? []),
    documentsById: (wanted) => wanted.flatMap((id) => documents.get(id) ?? []),
    documentsMatching: unused,
  };
  return { store, documents };
}

/** Search with scripted leg rankings (chunk ids, best first). */
async function search(
  store: KnowledgeStore,
  dense: readonly string[],
  keyword: readonly string[],
  topK: number,
) {
  const vectors: VectorIndex = {
    upsert: () => undefined,
    embeddedChunkIds: () => new Set(),
    search: ({ k }) => dense.slice(0, k).map((chunkId, i) => ({ chunkId, score: 1 - i / 1000 })),
  };
  const keywords: KeywordIndex = {
    add: () => undefined,
    search: ({ k }) => keyword.slice(0, k).map((chunkId, i) => ({ chunkId, score: 1 - i / 1000 })),
  };
  const result = await searchKnowledgeBases(
    {
      store,
      vectors,
      keywords,
      embedderFor: () => ({
        embed: async () => ({ vectors: [new Float32Array(KB.embeddingDim)], promptTokens: 1 }),
      }),
    },
    [KB],
    { query: "anything", topK },
  );
  return result.hits;
}

describe("hybrid search fusion", () => {
  it("keeps a passage one leg ranks first against passages both legs rank poorly (rank window = topK)", async () => {
    // 30 passages both legs hold deep down, in different orders; "answer" is the keyword leg's first hit
    // and absent from the dense leg. Fused over full depth, any passage in both lists would outrank it.
    const shared = Array.from({ length: 30 }, (_, i) => `shared-${i}`);
    const denseOnly = Array.from({ length: 10 }, (_, i) => `dense-${i}`);
    const { store } = corpus(["answer", ...shared, ...denseOnly]);
    const dense = [...denseOnly, ...shared];
    const keyword = ["answer", ...[...shared].reverse()];
    const hits = await search(store, dense, keyword, 8);
    expect(hits).toHaveLength(8);
    expect(hits.map((hit) => hit.documentId)).toContain("answer");
  });

  it("collapses children into their parent before the window and returns the best-ranked child as the span", async () => {
    const { store } = corpus(["p", "q", "r"], { p: ["p-1", "p-2", "p-3"] });
    const hits = await search(store, ["p-2", "p-1", "p-3", "q"], ["p-3", "r"], 2);
    expect(hits.map((hit) => hit.documentId)).toEqual(["p", "q"]);
    expect(hits[0]?.chunkId).toBe("p-2");
    expect(hits[0]?.content).toBe("text of p.");
    expect(hits[0]?.matchedSpan).toBe("text of p-2.");
  });

  it("skips deleted documents before the window, so stale candidates take no slot", async () => {
    const { store, documents } = corpus(["gone", "a", "b", "c"]);
    const gone = documents.get("gone");
    if (gone !== undefined) gone.deletedAt = 1;
    const hits = await search(store, ["gone", "a", "b"], ["gone", "c"], 3);
    expect(hits.map((hit) => hit.documentId).sort()).toEqual(["a", "b", "c"]);
  });

  it("property: hits are distinct passages, at most topK, and topK of them whenever a leg holds topK", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `d${i}`);
    const ranking = fc.uniqueArray(fc.constantFrom(...ids), { maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(ranking, ranking, fc.integer({ min: 1, max: 12 }), async (dense, keyword, topK) => {
        const { store } = corpus(ids);
        const hits = await search(store, dense, keyword, topK);
        const found = hits.map((hit) => hit.documentId);
        expect(new Set(found).size).toBe(found.length);
        expect(found.length).toBe(Math.min(topK, new Set([...dense, ...keyword]).size));
        // Every hit comes from some leg's window of topK.
        for (const id of found)
          expect(dense.slice(0, topK).includes(id) || keyword.slice(0, topK).includes(id)).toBe(true);
      }),
    );
  });
});
