/**
 * One cold start, in a process of its own (run by kb-bench.ts): the store opened on a database
 * at rest, then a knowledge base's indexes loaded — `warm`: as an app's boot loads them
 * (`KnowledgeService.warm`: both legs at once, the vector packs read on a worker thread);
 * `sequential`: by each leg's first search, one after the other (the baseline: before HP63);
 * `rows`: the same, each leg loaded as before its packs (row by row: migrations 30 and 31).
 * Prints one JSON line: milliseconds to open and to load, MB read from the disk, RSS after.
 *
 *   node --import tsx packages/server/bench/kb-cold-start.ts <database file> <knowledge base id> [warm|sequential]
 */
import { createGroundwork } from "@groundwork/platform";
import { openStore, SqliteKeywordIndex, SqliteVectorIndex } from "@groundwork/store-sqlite";
import { diskReadMb, rssMb } from "./process-figures.js";

const [file, knowledgeBaseId, mode = "warm"] = process.argv.slice(2);
if (file === undefined || knowledgeBaseId === undefined || !["warm", "sequential", "rows"].includes(mode))
  throw new Error("usage: kb-cold-start.ts <database file> <knowledge base id> [warm|sequential|rows]");
const diskBefore = diskReadMb();
const started = performance.now();
const store = openStore({ file, secret: "benchmark-master-secret" });
const opened = performance.now();
const gw = createGroundwork({ store });
const kb = store.knowledgeBases.getKnowledgeBase(knowledgeBaseId);
if (kb === null) throw new Error(`no knowledge base ${knowledgeBaseId}`);
if (mode === "warm") {
  const organization = store.organizations.get(kb.organizationId);
  await gw.knowledge.warm(await gw.principal(organization?.name), [knowledgeBaseId]);
} else {
  // Any query loads everything: a unit vector of the knowledge base's width, one term.
  const packs = mode === "sequential";
  const vector = new Float32Array(kb.embeddingDim).fill(1 / Math.sqrt(kb.embeddingDim));
  const vectors = packs ? store.kbVectors : new SqliteVectorIndex(store.db, { packs });
  vectors.search({ knowledgeBaseId, k: 8, documentIds: null, vector });
  const keywords = packs ? store.kbKeywords : new SqliteKeywordIndex(store.db, { packs });
  const language = kb.textSearchLanguage;
  keywords.search({ knowledgeBaseId, k: 8, documentIds: null, language, terms: ["probe"] });
}
const loaded = performance.now();
console.log(
  JSON.stringify({
    openMs: Math.round(opened - started),
    loadMs: Math.round(loaded - opened),
    diskMb: diskReadMb() - diskBefore,
    rssMb: rssMb(),
  }),
);
await gw.close();
