/**
 * Knowledge-base benchmark (not part of the test suite). From the repository root:
 *
 *   node --import tsx packages/server/bench/kb-bench.ts
 *
 * Environment: KB_BENCH_SIZES (default "10000,100000" chunks), KB_BENCH_QUERIES (default 100),
 * KB_BENCH_INGEST_CHUNKS (default 5000), KB_BENCH_VECTORS ("hash,dense": hash-embedding-1536 of the
 * chunk texts, and/or dense clustered Gaussian vectors shaped like provider embeddings, where every
 * query component is non-zero), KB_BENCH_VEC0 ("0" skips the vec0 baseline table, 6 GB at 1M),
 * KB_BENCH_DOCUMENT_CHUNKS (default 10000 chunks per corpus document), KB_BENCH_INGEST_AT_SIZE
 * (chunks ingested through the pipeline into each searched knowledge base afterwards; default 0),
 * KB_BENCH_WARMUP (default 10: searches of other queries run first and reported apart, while V8
 * still optimizes the ranking code), KB_BENCH_DROP_CACHES ("1", as root: a second cold start after
 * emptying the page cache).
 * Run with `node --expose-gc` for RSS figures after a collection. For 1M chunks put TMPDIR on a disk
 * with ~25 GB free. It measures
 *   1. ingestion throughput (chunks/s) through the real pipeline — conversion (TXT), FIXED chunking,
 *      hash-embedding-1536 through the gateway, vector + FTS5 writes, the atomic switch;
 *   2. at each size (1536-wide vectors of synthetic text): p50/p99 of the hybrid search, of the
 *      vector leg (sign-code scan + exact sqlite-vec rescoring), of raw sqlite-vec KNN (brute force
 *      `vec_distance_cosine` and a `vec0` table) on the same vectors, and of the keyword leg;
 *   3. recall@8 of the vector leg against exact search;
 *   4. the cold start (a fresh process opening the store and loading both legs' in-memory indexes,
 *      `KnowledgeService.warm`; then in this process beside its baselines) and the RSS.
 * Timings depend on the machine's load (printed first).
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { systemClock } from "@groundwork/core";
import { hashEmbedding } from "@groundwork/gateway";
import { indexTerms, type NewChunk, searchKnowledgeBases } from "@groundwork/kb";
import { createStoreGateway, KnowledgeService } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";
import { makeTempDir } from "@groundwork/testkit";
import { benchKnowledgeBase as config, time } from "./bench-knowledge-base.js";
import { GcPauses } from "./gc-pauses.js";
import { percentile } from "./percentile.js";
import { diskReadMb, rssMb } from "./process-figures.js";
import { random, sentence } from "./synthetic-text.js";

const SIZES = (process.env.KB_BENCH_SIZES ?? "10000,100000").split(",").map(Number);
const QUERIES = Number(process.env.KB_BENCH_QUERIES ?? 100);
const INGEST_CHUNKS = Number(process.env.KB_BENCH_INGEST_CHUNKS ?? 5000);
const INGEST_AT_SIZE = Number(process.env.KB_BENCH_INGEST_AT_SIZE ?? 0);
const VEC0 = process.env.KB_BENCH_VEC0 !== "0";
const DOCUMENT_CHUNKS = Number(process.env.KB_BENCH_DOCUMENT_CHUNKS ?? 10000);
const WARMUP = Number(process.env.KB_BENCH_WARMUP ?? 10);
const DROP_CACHES = process.env.KB_BENCH_DROP_CACHES === "1";
const K = 8;

function stats(values: number[]): string {
  return `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms`;
}
async function timeAsync<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

const hashModel = {
  embed: async (request: { input: string[] }) => ({
    vectors: request.input.map((text) => hashEmbedding(text)),
    promptTokens: 0,
  }),
};

async function benchIngestion(dir: string): Promise<void> {
  const store = openStore({ file: join(dir, "ingest.db"), secret: "benchmark-master-secret" });
  const org = store.organizations.create("bench", "enterprise");
  const gateway = createStoreGateway(store);
  const service = new KnowledgeService(store, gateway);
  const kb = store.knowledgeBases.create(org.id, config("ingest"));
  const documents = 10;
  // ~100-token windows: about 75 words each.
  const wordsPerDocument = Math.ceil((INGEST_CHUNKS / documents) * 72);
  for (let d = 0; d < documents; d++) {
    const parts: string[] = [];
    for (let w = 0; w < wordsPerDocument; w += 12) parts.push(sentence(12));
    const accepted = store.knowledgeBases.acceptUpload({
      knowledgeBase: kb,
      filename: `doc-${d}.txt`,
      mime: "text/plain",
      bytes: new TextEncoder().encode(parts.join(" ")),
      metadata: {},
      apiKeyId: null,
    });
    await service.enqueueIngest(accepted.revision);
  }
  const cpuBefore = process.cpuUsage();
  const [, ms] = await timeAsync(() => service.drain());
  const cpu = cpuSeconds(cpuBefore);
  const chunks = store.db
    .prepare("SELECT COUNT(*) FROM kb_vectors WHERE knowledge_base_id = ?")
    .pluck()
    .get(kb.id) as number;
  const ready = store.db
    .prepare("SELECT COUNT(*) FROM kb_revisions WHERE status = 'READY'")
    .pluck()
    .get() as number;
  console.log(
    `ingestion: ${documents} TXT documents (${ready} READY), ${chunks} chunks in ${(ms / 1000).toFixed(2)} s = ${Math.round(
      chunks / (ms / 1000),
    )} chunks/s, ${Math.round(chunks / cpu)} per CPU-second of the process (conversion, FIXED 100-token chunking, hash-embedding-1536 via the gateway, vectors + FTS5, switch)`,
  );
  await service.stopWorker();
  store.close();
}

/** Dense unit vectors around topic centres, like provider embeddings (every component non-zero). */
function gaussian(): number {
  return Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
}
const CENTRES = Array.from({ length: 500 }, () => Float32Array.from({ length: 1536 }, gaussian));
function denseNear(spread: number): Float32Array {
  const centre = CENTRES[Math.floor(random() * CENTRES.length)] as Float32Array;
  const vector = Float32Array.from(centre, (value) => value + spread * gaussian());
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** CPU seconds of the process (every thread) since `before`: a rate that a shared machine's load does not divide. */
function cpuSeconds(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

/**
 * The database at rest before a cold start: the bench's own writes flushed (`sync`), so the
 * load does not share the disk with their writeback (which slowed it up to 2× at 1M). With
 * `drop` (KB_BENCH_DROP_CACHES=1, root only) the page cache is emptied too, as after a reboot.
 * Answers how the page cache was left.
 */
function settleDisk(drop: boolean): "cached" | "dropped" {
  execFileSync("sync");
  if (!drop) return "cached";
  writeFileSync("/proc/sys/vm/drop_caches", "1");
  return "dropped";
}

interface ColdStart {
  openMs: number;
  loadMs: number;
  diskMb: number;
  rssMb: number;
}

/** A cold start in a fresh process (kb-cold-start.ts): the figures it prints. */
function coldStart(file: string, knowledgeBaseId: string, mode: "warm" | "sequential" | "rows"): ColdStart {
  const script = fileURLToPath(new URL("./kb-cold-start.ts", import.meta.url));
  const out = execFileSync(process.execPath, [...process.execArgv, script, file, knowledgeBaseId, mode], {
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").pop() ?? "{}");
}

/**
 * Cold starts in fresh processes on the database at rest: `KnowledgeService.warm` (both legs at
 * once, the vector packs read on a worker thread, HP63) and the baseline of the same run — both
 * legs loaded by their first searches one after the other, as before HP63 — each after the same
 * settling (so with `drop`, each from an empty page cache). In the order warm, sequential,
 * sequential, warm: the first process after the bench's writes pays for the kernel reclaiming
 * the page cache they filled (seconds at 1M), so each mode is measured once early, once late.
 */
function coldStarts(file: string, knowledgeBaseId: string, drop: boolean): void {
  const runs = (["warm", "sequential", "sequential", "warm"] as const).map((mode) => {
    const [cache, settleMs] = time(() => settleDisk(drop));
    return { mode, cache, settleMs, ...coldStart(file, knowledgeBaseId, mode) };
  });
  const total = (run: ColdStart) => run.openMs + run.loadMs;
  const describe = (mode: "warm" | "sequential") =>
    runs
      .filter((run) => run.mode === mode)
      .map((run) => `${total(run)} ms (${run.diskMb} MB from the disk, RSS ${run.rssMb} MB)`)
      .join(", then ");
  const ratio = (index: number, other: number) =>
    (total(runs[other] as ColdStart) / total(runs[index] as ColdStart)).toFixed(2);
  // Before packs (migrations 30 and 31), once, last: its 20-odd seconds leave the page cache warm.
  const rows = drop ? null : coldStart(file, knowledgeBaseId, "rows");
  const warmLate = runs[3] as ColdStart;
  const before =
    rows === null
      ? ""
      : `; loaded row by row as before packs: ${total(rows)} ms = ${(total(rows) / total(warmLate)).toFixed(1)}× the late warm start`;
  console.log(
    `  cold start in a fresh process, page cache ${runs[0]?.cache} (a sync of ${((runs[0]?.settleMs ?? 0) / 1000).toFixed(1)} s first), from opening the store to both legs loaded — KnowledgeService.warm: ${describe("warm")}; first searches one after the other (before HP63), same run: ${describe("sequential")}; sequential ÷ warm at the same position: ${ratio(0, 1)}× early, ${ratio(3, 2)}× late${before}`,
  );
}

async function benchSearch(dir: string, size: number, kind: "hash" | "dense"): Promise<void> {
  const file = join(dir, `search-${kind}-${size}.db`);
  let store = openStore({ file, secret: "benchmark-master-secret" });
  const org = store.organizations.create("bench", "enterprise");
  const kb = store.knowledgeBases.create(org.id, config(`kb-${size}`));
  const upload = (filename: string) =>
    store.knowledgeBases.acceptUpload({
      knowledgeBase: kb,
      filename,
      mime: "text/plain",
      bytes: new TextEncoder().encode(filename),
      metadata: {},
      apiKeyId: null,
    });
  // Documents of up to DOCUMENT_CHUNKS chunks, written as the pipeline writes them (chunks, vectors,
  // FTS5 rows, switch); nothing of a document is kept in memory afterwards but a few query texts.
  const queryTexts: string[] = [];
  let insertMs = 0;
  let indexMs = 0;
  let vec0Ms = 0;
  if (VEC0)
    store.db.exec("CREATE VIRTUAL TABLE bench_vec0 USING vec0(embedding float[1536] distance_metric=cosine)");
  const insertVec0 = VEC0
    ? store.db.prepare("INSERT INTO bench_vec0 (rowid, embedding) VALUES (?, ?)")
    : null;
  let vec0Rowid = 1;
  for (let first = 0; first < size; first += DOCUMENT_CHUNKS) {
    const accepted = upload(`corpus-${first}.txt`);
    const texts = Array.from(
      { length: Math.min(DOCUMENT_CHUNKS, size - first) },
      () => `${sentence(30)} ${sentence(30)}`,
    );
    for (let q = 0; q < Math.ceil((QUERIES * texts.length) / size); q++)
      queryTexts.push(texts[Math.floor(random() * texts.length)] ?? "");
    const drafts: NewChunk[] = texts.map((text, position) => ({
      kind: "fixed",
      parentPosition: null,
      position,
      text,
      tokenCount: 100,
      pageStart: null,
      pageEnd: null,
      headingPath: [],
    }));
    const [chunks, chunksMs] = time(() => store.knowledgeBases.replaceChunks(accepted.revision.id, drafts));
    insertMs += chunksMs;
    for (let start = 0; start < chunks.length; start += 2000) {
      const batch = chunks.slice(start, start + 2000);
      const entries = batch.map((chunk) => ({
        chunkId: chunk.id,
        vector: kind === "hash" ? hashEmbedding(chunk.text ?? "") : denseNear(1.2),
      }));
      indexMs += time(() => {
        store.kbVectors.upsert(kb.id, entries);
        store.kbKeywords.add(
          kb.id,
          "english",
          batch.map((chunk) => ({ chunkId: chunk.id, terms: indexTerms(chunk.text ?? "", "english") })),
        );
      })[1];
      if (insertVec0 !== null) {
        vec0Ms += time(() =>
          store.db.transaction(() => {
            for (const entry of entries)
              insertVec0.run(BigInt(vec0Rowid++), Buffer.from(entry.vector.buffer));
          })(),
        )[1];
      }
    }
    store.knowledgeBases.activateRevision(accepted.revision.id);
  }
  console.log(
    `\n${size} chunks, ${kind} vectors: chunks inserted in ${(insertMs / 1000).toFixed(1)} s; vectors + FTS5 in ${(indexMs / 1000).toFixed(1)} s (raw store writes: ${Math.round(size / ((insertMs + indexMs) / 1000))} chunks/s)${VEC0 ? `; vec0 table in ${(vec0Ms / 1000).toFixed(1)} s` : ""}`,
  );
  store.close();
  // The cold start itself: a fresh process on the database at rest (the app's boot), with the
  // page cache as the writes left it (again at the end with it emptied, KB_BENCH_DROP_CACHES=1).
  coldStarts(file, kb.id, false);
  // Then in this process, the store reopened and both legs' in-memory indexes loaded at once as
  // `KnowledgeService.warm` loads them (RSS and disk reads measured around it), for the searches.
  const [reopened, openMs] = time(() => openStore({ file, secret: "benchmark-master-secret" }));
  store = reopened;
  // Drawn as the cold start's query once was, so the queries below stay those of earlier sessions.
  denseNear(1.2);
  const rssBefore = rssMb();
  // How much of the load came from the disk rather than the page cache: the same load takes
  // seconds more when the packs were pushed out of the cache by the writes before it.
  const diskBefore = diskReadMb();
  const loaded = store;
  const [, warmMs] = await timeAsync(async () => {
    const vectors = loaded.kbVectors.warm(kb.id);
    loaded.kbKeywords.warm(kb.id, "english");
    await vectors;
  });
  const warmDisk = diskReadMb() - diskBefore;
  const rssAfter = rssMb();
  console.log(
    `  in this process: store opened in ${openMs.toFixed(0)} ms, both legs loaded (warm) in ${warmMs.toFixed(0)} ms; ${warmDisk} MB read from the disk; RSS ${rssBefore} MB before, ${rssAfter} MB after (+${rssAfter - rssBefore} MB for rows and postings)`,
  );

  const queryOf = (source: string) => {
    const words = source.replace(/\./g, "").split(" ");
    const start = Math.floor(random() * (words.length - 6));
    return words.slice(start, start + 3 + Math.floor(random() * 4)).join(" ");
  };
  const queries = queryTexts.slice(0, QUERIES).map(queryOf);
  const record = store.knowledgeBases.getKnowledgeBase(kb.id);
  if (record === null) throw new Error("knowledge base vanished");
  // The query's vector: hash-embedding-1536 of its text, or a dense vector near a topic centre.
  const queryVectors = new Map(
    queries.map((query) => [query, kind === "hash" ? hashEmbedding(query) : denseNear(1.2)]),
  );
  const embedder = {
    embed: async (request: { input: string[] }) => ({
      vectors: request.input.map((text) => queryVectors.get(text) ?? hashEmbedding(text)),
      promptTokens: 0,
    }),
  };
  const deps = {
    store: store.knowledgeBases,
    vectors: store.kbVectors,
    keywords: store.kbKeywords,
    embedderFor: () => (kind === "hash" ? hashModel : embedder),
  };
  const keywordQuery = (query: string) => ({
    knowledgeBaseId: kb.id,
    k: 50,
    documentIds: null,
    language: "english" as const,
    terms: [...new Set(indexTerms(query, "english").split(" "))],
  });
  // The first searches of a process run while V8 is still optimizing the ranking code: other
  // queries (drawn after the timed ones, so those stay as before) go first and are reported apart.
  const warmups = queryTexts.slice(0, WARMUP).map(queryOf);
  for (const query of warmups)
    if (!queryVectors.has(query))
      queryVectors.set(query, kind === "hash" ? hashEmbedding(query) : denseNear(1.2));
  const warmHybrid: number[] = [];
  const warmKeyword: number[] = [];
  for (const query of warmups) {
    warmHybrid.push((await timeAsync(() => searchKnowledgeBases(deps, [record], { query, topK: K })))[1]);
    warmKeyword.push(time(() => store.kbKeywords.search(keywordQuery(query)))[1]);
  }
  if (warmups.length > 0)
    console.log(
      `  first ${warmups.length} searches after the load (other queries; not in the figures below): hybrid ${warmHybrid.map((ms) => ms.toFixed(0)).join(", ")} ms; keyword leg ${warmKeyword.map((ms) => ms.toFixed(0)).join(", ")} ms`,
    );
  const hybrid: number[] = [];
  const vectorLeg: number[] = [];
  const exact: number[] = [];
  const vec0: number[] = [];
  const keyword: number[] = [];
  const keywordIntervals: Array<[number, number]> = [];
  const gc = new GcPauses();
  let recallSum = 0;
  const knn = VEC0
    ? store.db.prepare("SELECT rowid, distance FROM bench_vec0 WHERE embedding MATCH ? AND k = ?")
    : null;
  for (const query of queries) {
    const vector = queryVectors.get(query) ?? hashEmbedding(query);
    const [, h] = await timeAsync(() => searchKnowledgeBases(deps, [record], { query, topK: K }));
    hybrid.push(h);
    const [approx, v] = time(() =>
      store.kbVectors.search({ knowledgeBaseId: kb.id, k: K, documentIds: null, vector }),
    );
    vectorLeg.push(v);
    const [truth, e] = time(() =>
      store.kbVectors.exactSearch({ knowledgeBaseId: kb.id, k: K, documentIds: null, vector }),
    );
    exact.push(e);
    if (knn !== null) vec0.push(time(() => knn.all(Buffer.from(vector.buffer), K))[1]);
    const keywordStart = performance.now();
    store.kbKeywords.search(keywordQuery(query));
    const keywordEnd = performance.now();
    keyword.push(keywordEnd - keywordStart);
    keywordIntervals.push([keywordStart, keywordEnd]);
    const wanted = new Set(truth.map((hit) => hit.chunkId));
    recallSum += approx.filter((hit) => wanted.has(hit.chunkId)).length / Math.max(1, wanted.size);
  }
  console.log(`  hybrid search (embed + both legs + RRF + hydration): ${stats(hybrid)}`);
  console.log(`  vector leg (sign bits or sparse int8 scan + rescoring): ${stats(vectorLeg)}`);
  console.log(`  raw sqlite-vec, vec_distance_cosine brute force:       ${stats(exact)}`);
  if (VEC0) console.log(`  raw sqlite-vec, vec0 KNN:                               ${stats(vec0)}`);
  console.log(`  keyword leg (in-memory BM25, 50 candidates):            ${stats(keyword)}`);
  // The slowest legs name their queries, so a tail can be replayed (kb-keyword-bench.ts prints their
  // terms' rows), and the GC pauses inside them: a collection there mostly collects the other legs' garbage.
  const paused = await gc.within(keywordIntervals);
  gc.stop();
  const slowest = keyword
    .map((ms, i) => [ms, i] as const)
    .sort((a, b) => b[0] - a[0])
    .slice(0, 3)
    .map(([ms, i]) => `${ms.toFixed(1)} ms "${queries[i] ?? ""}" (GC ${(paused[i] ?? 0).toFixed(1)} ms)`);
  const pausedLegs = paused.filter((ms) => ms > 0);
  console.log(
    `  slowest keyword legs: ${slowest.join("; ")}; ${pausedLegs.length} of ${keyword.length} legs had a GC pause inside (${pausedLegs.reduce((a, b) => a + b, 0).toFixed(1)} ms in all)`,
  );
  console.log(
    `  vector-leg recall@8 vs exact: ${(recallSum / queries.length).toFixed(4)} over ${queries.length} queries; RSS ${rssMb()} MB`,
  );
  // A small document served after the rows were loaded: they are patched (appended), not rebuilt.
  const added = upload("late.txt");
  const late = store.knowledgeBases.replaceChunks(
    added.revision.id,
    Array.from({ length: 100 }, (_, position) => ({
      kind: "fixed" as const,
      parentPosition: null,
      position,
      text: `late ${sentence(30)}`,
      tokenCount: 100,
      pageStart: null,
      pageEnd: null,
      headingPath: [],
    })),
  );
  store.kbVectors.upsert(
    kb.id,
    late.map((chunk) => ({
      chunkId: chunk.id,
      vector: kind === "hash" ? hashEmbedding(chunk.text ?? "") : denseNear(1.2),
    })),
  );
  store.knowledgeBases.activateRevision(added.revision.id);
  const buildsBefore = store.kbVectors.columnBuilds;
  const probe = queryVectors.get(queries[0] ?? "") ?? hashEmbedding("probe");
  const [, patchMs] = time(() =>
    store.kbVectors.search({ knowledgeBaseId: kb.id, k: K, documentIds: null, vector: probe }),
  );
  const afterPatch: number[] = [];
  for (const query of queries.slice(0, 20)) {
    const vector = queryVectors.get(query) ?? hashEmbedding(query);
    afterPatch.push(
      time(() => store.kbVectors.search({ knowledgeBaseId: kb.id, k: K, documentIds: null, vector }))[1],
    );
  }
  console.log(
    `  first query after a 100-chunk document was served: ${patchMs.toFixed(0)} ms (${store.kbVectors.columnBuilds - buildsBefore} rebuilds); vector leg then ${stats(afterPatch)}`,
  );
  if (INGEST_AT_SIZE > 0) await benchIngestionInto(store, kb, INGEST_AT_SIZE, queries[0] ?? "probe");
  store.close();
  // Last, since emptying the page cache also drops this process's code pages (the searches
  // above would pay for them): the cold start after a reboot.
  if (DROP_CACHES) coldStarts(file, kb.id, true);
}

/**
 * Ingestion through the real pipeline into the big knowledge base (the in-memory rows loaded):
 * documents of ~1,000 chunks, each switched in and searched, so every document patches the rows.
 */
async function benchIngestionInto(
  store: ReturnType<typeof openStore>,
  kb: NonNullable<ReturnType<ReturnType<typeof openStore>["knowledgeBases"]["getKnowledgeBase"]>>,
  chunks: number,
  query: string,
): Promise<void> {
  const gateway = createStoreGateway(store);
  const service = new KnowledgeService(store, gateway);
  const documents = Math.max(1, Math.round(chunks / 1000));
  const wordsPerDocument = Math.ceil((chunks / documents) * 72);
  const buildsBefore = store.kbVectors.columnBuilds;
  const cpuBefore = process.cpuUsage();
  let ms = 0;
  for (let d = 0; d < documents; d++) {
    const parts: string[] = [];
    for (let w = 0; w < wordsPerDocument; w += 12) parts.push(sentence(12));
    const accepted = store.knowledgeBases.acceptUpload({
      knowledgeBase: kb,
      filename: `ingest-${d}.txt`,
      mime: "text/plain",
      bytes: new TextEncoder().encode(parts.join(" ")),
      metadata: {},
      apiKeyId: null,
    });
    ms += (
      await timeAsync(async () => {
        await service.enqueueIngest(accepted.revision);
        await service.drain();
      })
    )[1];
    // The next search patches the rows with the new document.
    ms += time(() =>
      store.kbVectors.search({
        knowledgeBaseId: kb.id,
        k: K,
        documentIds: null,
        vector: hashEmbedding(query),
      }),
    )[1];
  }
  const cpu = cpuSeconds(cpuBefore);
  await service.stopWorker();
  const added = store.db
    .prepare(
      "SELECT COUNT(*) FROM kb_vectors v JOIN kb_documents d ON d.serving_revision_id = v.revision_id WHERE d.name LIKE 'ingest-%' AND d.knowledge_base_id = ?",
    )
    .pluck()
    .get(kb.id) as number;
  console.log(
    `  ingestion into it: ${documents} TXT documents, ${added} chunks in ${(ms / 1000).toFixed(2)} s = ${Math.round(added / (ms / 1000))} chunks/s (${Math.round(added / cpu)} per CPU-second) through the pipeline, each followed by a search (${store.kbVectors.columnBuilds - buildsBefore} rebuilds)`,
  );
}

async function main(): Promise<void> {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; node ${process.version}; ${new Date(systemClock.now()).toISOString()}`,
  );
  const dir = makeTempDir("kb-bench-");
  try {
    if (INGEST_CHUNKS > 0) await benchIngestion(dir.path);
    const kinds = (process.env.KB_BENCH_VECTORS ?? "hash,dense").split(",") as Array<"hash" | "dense">;
    for (const kind of kinds) for (const size of SIZES) await benchSearch(dir.path, size, kind);
  } finally {
    dir.remove();
  }
}

await main();
