/**
 * Retrieval quality on the labelled corpus in quality-corpus.ts: recall@8 of the
 * keyword leg alone, the dense leg alone (hash-embedding-1536 through the
 * gateway) and the fused search the API answers. Each passage is its own
 * document, ingested through the real pipeline with the hard negatives and 400
 * random distractors. The distractors are a random draw, so one draw can favour
 * a leg by luck; the test measures ten draws (seeds 1–10, fixed), reports each
 * and asserts the criterion on the mean, with floors per draw.
 */
import { queryTerms } from "@groundwork/kb";
import { describe, expect, it } from "vitest";
import { kbHarness, viewerPrincipal } from "../../../test/kb-test-support.js";
import { distractors, NEAR_MISSES, PASSAGES, QUERIES } from "../../../test/quality-corpus.js";
import { onPostgres } from "../../../test/test-support.js";

const K = 8;
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/** Recall sums are float; equal recalls may differ in the last bits. */
const EPSILON = 1e-9;
/**
 * The keyword leg's floor per draw. SQLite ranks the engine's analysed terms by FTS5's BM25;
 * PostgreSQL ranks its own analysis of the text (the knowledge base's text-search configuration)
 * by `ts_rank`, which weighs no term by its rarity and stems some words otherwise (decision
 * PG176): on this corpus it misses two to four more queries per draw (0.92–0.96, mean 0.947
 * against SQLite's 0.98). The fused criterion below holds on both.
 */
const KEYWORD_FLOOR = onPostgres() ? 0.9 : 0.95;
/** Ten draws of 469 documents each through the pipeline: on PostgreSQL 114 s quiet, 406 s at load 9. */
const TIMEOUT_MS = onPostgres() ? 900_000 : 120_000;

interface Recall {
  keyword: number;
  dense: number;
  fused: number;
}

function recall(found: readonly string[], relevant: readonly string[]): number {
  const top = new Set(found.slice(0, K));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

async function measure(seed: number): Promise<{ recall: Recall; misses: string[] }> {
  const h = await kbHarness();
  const kb = await h.createKb({
    chunkingStrategy: "FIXED",
    chunkSize: 200,
    chunkOverlap: 0,
    textSearchLanguage: "english",
  });
  const corpus = { ...PASSAGES, ...NEAR_MISSES, ...distractors(400, seed) };
  const response = await h.upload(
    kb.id as string,
    Object.entries(corpus).map(([id, text]) => ({ name: id, content: text })),
  );
  expect(response.status).toBe(202);
  await h.drain();
  const store = h.tenant.store;
  const record = await store.knowledgeBases.get(h.tenant.organizationId, kb.id as string);
  if (record === null) throw new Error("knowledge base vanished");
  const principal = viewerPrincipal(h);
  const service = h.groundwork.knowledge;
  const documentName = async (chunkId: string) => {
    const [chunk] = await store.knowledgeBases.chunksById(record.id, [chunkId]);
    return chunk === undefined
      ? ""
      : ((await store.knowledgeBases.getDocument(chunk.documentId))?.name ?? "");
  };
  const totals: Recall = { keyword: 0, dense: 0, fused: 0 };
  const misses: string[] = [];
  for (const { query, relevant } of QUERIES) {
    const keyword = await Promise.all(
      (
        await store.kbKeywords.search({
          knowledgeBaseId: record.id,
          k: K,
          documentIds: null,
          language: record.textSearchLanguage,
          terms: queryTerms(query, record.textSearchLanguage),
        })
      ).map(async (hit) => await documentName(hit.chunkId)),
    );
    const vector = (
      await h.gateway.embeddings(
        { model: record.embeddingModel, input: [query], encodingFormat: "float" },
        { principal },
      )
    ).data[0]?.embedding as number[];
    const dense = await Promise.all(
      (
        await store.kbVectors.search({
          knowledgeBaseId: record.id,
          k: K,
          documentIds: null,
          vector: Float32Array.from(vector),
        })
      ).map(async (hit) => await documentName(hit.chunkId)),
    );
    const fused = (await service.search(principal, [record], { query, topK: K })).hits.map(
      (hit) => hit.documentName,
    );
    const row = {
      keyword: recall(keyword, relevant),
      dense: recall(dense, relevant),
      fused: recall(fused, relevant),
    };
    if (Math.min(row.keyword, row.dense, row.fused) < 1) misses.push(`"${query}" ${JSON.stringify(row)}`);
    totals.keyword += row.keyword;
    totals.dense += row.dense;
    totals.fused += row.fused;
  }
  const n = QUERIES.length;
  return {
    recall: { keyword: totals.keyword / n, dense: totals.dense / n, fused: totals.fused / n },
    misses,
  };
}

describe("retrieval quality (recall@8)", () => {
  it(
    "fused is not worse than the better single leg",
    async () => {
      const n = QUERIES.length;
      const documents = Object.keys(PASSAGES).length + Object.keys(NEAR_MISSES).length + 400;
      const mean: Recall = { keyword: 0, dense: 0, fused: 0 };
      for (const seed of SEEDS) {
        const { recall: result, misses } = await measure(seed);
        console.log(
          `seed ${seed}: recall@8 over ${n} queries, ${documents} documents:`,
          JSON.stringify(result),
        );
        for (const miss of misses) console.log(`  below 1: ${miss}`);
        // Floors that catch a regression of either leg or of the fusion in any single draw: each leg within
        // its known misses, and fused within one query of the better leg (draw 6 loses "who has to go to
        // the hotline", which only the keyword leg ranks, 6th, to dense-only passages; see
        // docs/knowledge-bases.md).
        expect(result.keyword).toBeGreaterThanOrEqual(KEYWORD_FLOOR);
        expect(result.dense).toBeGreaterThanOrEqual(0.9);
        expect(result.fused).toBeGreaterThanOrEqual(Math.max(result.keyword, result.dense) - 1 / n - EPSILON);
        mean.keyword += result.keyword / SEEDS.length;
        mean.dense += result.dense / SEEDS.length;
        mean.fused += result.fused / SEEDS.length;
      }
      console.log(`mean over seeds ${SEEDS.join(", ")}:`, JSON.stringify(mean));
      // The criterion, over all draws: fused recall@8 is not below the better leg's.
      expect(mean.fused).toBeGreaterThanOrEqual(Math.max(mean.keyword, mean.dense) - EPSILON);
    },
    TIMEOUT_MS,
  );
});
