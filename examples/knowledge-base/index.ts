// Ingests two documents into a knowledge base with the offline embedding model and searches it with citations.
// From the repository root, after a build: node --import tsx examples/knowledge-base/index.ts
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({
  store: openStore({ file: ":memory:", secret: "a-long-random-master-secret" }),
});
const me = await groundwork.principal("acme");
const kb = await groundwork.knowledge.createKnowledgeBase(me, {
  name: "Handbook",
  slug: "handbook",
  // Built in and offline: lexical feature hashing, not semantic (use a provider's model for meaning).
  embeddingProviderId: "builtin",
  embeddingModel: "hash-embedding-1536",
  embeddingDim: 1536,
});
const text = (s: string) => new TextEncoder().encode(s);
await groundwork.knowledge.addDocuments(me, kb.id, [
  { filename: "leave.md", content: text("# Leave\n\nEmployees get 30 days of paid leave per year.") },
  { filename: "travel.md", content: text("# Travel\n\nBook trains for trips under 600 km.") },
]);
await groundwork.knowledge.drain(); // runs the queued ingestion now; start() runs it in the background
// At an app's boot: a large knowledge base's in-memory indexes load now, not on the first query.
await groundwork.knowledge.warm(me, [kb.id]);
const { hits } = await groundwork.knowledge.search(me, [kb.id], { query: "days of paid leave", topK: 3 });
const top = hits[0];
if (top !== undefined) {
  const citation = await groundwork.knowledge.citation(me.organizationId, kb.id, top.chunkId);
  console.log(top.documentName, citation.headings, citation.isCurrentVersion, JSON.stringify(citation.text));
}
await groundwork.close();
// #endregion readme
