/**
 * The kb engine end to end on a store: ingestion (`Ingestion`, a plain-text parser, the
 * gateway's hash embedder) and `searchKnowledgeBases`. Every backend must answer what the
 * first one described (the SQLite store, the reference) answered: the same top documents, the
 * same citations (pages and spans) and the same degraded modes when the embedder fails.
 * Used by src/kb-ports.test.ts, which holds the databases.
 */
import type { EmbeddingModel } from "@groundwork/core";
import {
  type DocumentParser,
  Ingestion,
  type KnowledgeBaseRecord,
  resolveCitation,
  type SearchResult,
  searchKnowledgeBases,
} from "@groundwork/kb";
import { describe, expect, it } from "vitest";
import { hashEmbedding } from "../../gateway/src/hash-embedding.js";
import { baseConfig, type KbBackend } from "../../kb/test/kb-ports-contract.js";

/** Plain text, one page per form feed, a heading per line starting with "# ". */
const parser: DocumentParser = {
  async parse(source) {
    const pages = new TextDecoder().decode(source.bytes).split("\f");
    return {
      blocks: pages.flatMap((page, index) =>
        page
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) =>
            line.startsWith("# ")
              ? { kind: "heading" as const, level: 1, text: line.slice(2), page: index + 1 }
              : { kind: "text" as const, text: line, page: index + 1 },
          ),
      ),
      metadata: { format: "text" },
    };
  },
};

const hashEmbedder: EmbeddingModel = {
  async embed(request) {
    return { vectors: request.input.map(hashEmbedding), promptTokens: request.input.length };
  },
};
const failingEmbedder: EmbeddingModel = {
  async embed() {
    throw new Error("the embedding upstream is down");
  },
};

const CORPUS: Record<string, string> = {
  "volcanoes.txt":
    "# Volcanoes\nMagma rises through the crust and erupts as lava from volcanic vents.\fAsh clouds from eruptions ground aircraft for days.",
  "baking.txt":
    "# Bread\nYeast ferments the dough, which rises before baking in a hot oven.\nA sourdough starter replaces yeast.",
  "sailing.txt":
    "# Sailing\nA sloop carries one mast; tacking turns the bow through the wind.\fReefing the mainsail reduces sail area in strong wind.",
  "databases.txt":
    "# Indexes\nA B-tree index keeps keys sorted, so range queries read few pages.\nVacuum reclaims dead rows.",
};

const QUERIES: Array<[string, string]> = [
  ["lava eruption from a volcano", "volcanoes.txt"],
  ["sourdough yeast dough", "baking.txt"],
  ["reefing the mainsail in strong wind", "sailing.txt"],
  ["b-tree index range queries", "databases.txt"],
];

/**
 * What every store must answer alike: the best document and the degraded mode. Lower ranks may
 * differ (decision PG6: PostgreSQL's configurations drop stop words and `ts_rank` has no IDF).
 */
function summary(result: SearchResult) {
  return { top: result.hits[0]?.documentName ?? null, degraded: result.degraded ?? null };
}

const answers = new Map<string, unknown>();

export function describeRetrievalEndToEnd(name: string, open: () => Promise<KbBackend>): void {
  describe(`retrieval end to end on ${name}`, () => {
    it("ingests, searches, cites and degrades like the reference store", async () => {
      const backend = await open();
      const { store, vectors, keywords } = backend;
      const create = (slug: string) =>
        store.create(backend.organizationId, {
          ...baseConfig,
          slug,
          name: slug,
          embeddingDim: 1536,
          chunkSize: 60,
          textSearchLanguage: "english",
        });
      const kb = await create("handbook");
      const second = await create("second");
      const ingestion = new Ingestion({ store, vectors, keywords, parser, embedderFor: () => hashEmbedder });
      for (const [filename, text] of Object.entries(CORPUS)) {
        const target = filename === "databases.txt" ? second : kb;
        const { revision } = await store.acceptUpload({
          knowledgeBase: target,
          filename,
          mime: "text/plain",
          bytes: new TextEncoder().encode(text),
          metadata: { topic: filename.replace(".txt", "") },
          apiKeyId: null,
        });
        expect(await ingestion.run(revision.id)).toMatchObject({ status: "READY" });
      }
      const search = (kbs: KnowledgeBaseRecord[], query: string, embedder = hashEmbedder, filter?: object) =>
        searchKnowledgeBases({ store, vectors, keywords, embedderFor: () => embedder }, kbs, {
          query,
          topK: 3,
          ...(filter === undefined ? {} : { metadataFilter: filter as Record<string, unknown> }),
        });
      const results: Record<string, unknown> = {};
      for (const [query, expected] of QUERIES) {
        const result = await search([kb, second], query);
        expect(result.hits[0]?.documentName, `${name}: ${query}`).toBe(expected);
        expect(result.degraded).toBeUndefined();
        results[query] = summary(result);
      }
      // Citations: the hit reaching page 2 of the sailing guide, its span inside the revision's text.
      const reefing = (await search([kb], "reefing the mainsail")).hits[0];
      expect(reefing).toMatchObject({ documentName: "sailing.txt", pageEnd: 2, headingPath: ["Sailing"] });
      const citation = await resolveCitation(store, kb.id, reefing?.chunkId ?? "");
      expect(citation).toMatchObject({ textStatus: "AVAILABLE", isCurrentVersion: true, pageEnd: 2 });
      expect(citation.span?.page).toBe(reefing?.pageStart);
      expect(citation.span?.end).toBeGreaterThan(citation.span?.start ?? Number.POSITIVE_INFINITY);
      results.citation = {
        span: citation.span,
        pages: [citation.pageStart, citation.pageEnd],
        headings: citation.headings,
      };
      // The metadata filter keeps other documents out.
      const filtered = await search([kb], "wind lava yeast", hashEmbedder, { topic: "baking" });
      expect(new Set(filtered.hits.map((hit) => hit.documentName))).toEqual(new Set(["baking.txt"]));
      // Degraded modes: the dense leg failing answers from keywords alone.
      const lexical = await search([kb, second], "volcanic ash", failingEmbedder);
      expect(lexical.degraded).toBe("lexical_only");
      expect(lexical.hits[0]?.documentName).toBe("volcanoes.txt");
      results.lexical = summary(lexical);
      const partial = await searchKnowledgeBases(
        {
          store,
          vectors,
          keywords,
          embedderFor: (each) => (each.id === second.id ? failingEmbedder : hashEmbedder),
        },
        [kb, second],
        { query: "vacuum dead rows", topK: 3 },
      );
      expect(partial.degraded).toBe("partial_lexical_only");
      // The failing knowledge base still answers through its keyword leg.
      expect(partial.hits.map((hit) => hit.documentName)).toContain("databases.txt");
      results.partial = summary(partial);
      // A deleted document is withdrawn from answers and its citations lose their text.
      const [volcano] = await store.documentsMatching(kb.id, { topic: "volcanoes" });
      await store.deleteDocument(kb.id, volcano ?? "");
      const after = await search([kb], "lava eruption from a volcano");
      expect(after.hits.some((hit) => hit.documentName === "volcanoes.txt")).toBe(false);
      // Every store answers what the first one (the reference) answered.
      const reference = answers.size === 0 ? results : answers.values().next().value;
      answers.set(name, results);
      expect(results).toEqual(reference);
    }, 60_000);
  });
}
