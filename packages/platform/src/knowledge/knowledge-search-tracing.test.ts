/**
 * Knowledge-base searches as traces (PLATFORM.md §13): a `search {slug}` root of kind
 * `kb_search` whose query embedding is the gateway's call inside it; the query text only
 * when content is captured.
 */
import { GEN_AI, GROUNDWORK } from "@groundwork/observability";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type GatewayCall, observeGateway } from "../../test/observed-gateway.js";
import {
  allAttributeText,
  parentIdOf,
  type RecordingTraceHooks,
  recordingTraceHooks,
} from "../../test/recording-trace-hooks.js";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import { KNOWLEDGE_BASE_IDS_ATTRIBUTE, KnowledgeService } from "./knowledge-service.js";

const text = (value: string) => new TextEncoder().encode(value);
const QUERY = "how much does the harbour crane lift";

let tracing: RecordingTraceHooks;
let groundwork: Groundwork;
let service: KnowledgeService;
let gatewayCalls: GatewayCall[];

beforeAll(() => {
  tracing = recordingTraceHooks();
});
afterAll(() => tracing.close());
beforeEach(async () => {
  tracing.reset();
  tracing.setCaptureContent(false);
  groundwork = createGroundwork({ store: await openTestStore({ secret: "kb-tracing-secret" }) });
  const observed = observeGateway(groundwork.gateway);
  gatewayCalls = observed.calls;
  service = new KnowledgeService(groundwork.store, observed.gateway, { traceHooks: tracing.hooks });
});
afterEach(async () => {
  await service.stopWorker();
  await groundwork.close();
  await groundwork.store.close();
});

async function knowledgeBase(slug: string, document: string) {
  const principal = await groundwork.principal();
  const kb = await groundwork.knowledge.createKnowledgeBase(principal, {
    name: slug,
    slug,
    embeddingProviderId: "builtin",
    embeddingModel: "hash-embedding-1536",
    embeddingDim: 1536,
  });
  await groundwork.knowledge.addDocuments(principal, kb.id, [
    { filename: `${slug}.txt`, content: text(document) },
  ]);
  await groundwork.knowledge.drain();
  return kb;
}

describe("knowledge-base search spans", () => {
  it("a search is a root search span of kind kb_search with its knowledge base; the embeddings call runs inside", async () => {
    const kb = await knowledgeBase("handbook", "The harbour crane lifts forty tonnes.");
    const principal = await groundwork.principal();
    const result = await service.search(principal, [kb.id], { query: QUERY });
    expect(result.hits[0]?.content).toContain("harbour crane");
    const spans = tracing.named("search handbook");
    expect(spans).toHaveLength(1);
    const span = spans[0] as (typeof spans)[number];
    expect(parentIdOf(span)).toBeUndefined();
    expect(span.attributes).toEqual({
      [GROUNDWORK.organizationId]: principal.organizationId,
      [GROUNDWORK.traceKind]: "kb_search",
      [KNOWLEDGE_BASE_IDS_ATTRIBUTE]: [kb.id],
    });
    expect(gatewayCalls.map((call) => [call.method, call.spanId])).toEqual([
      ["embeddings", span.spanContext().spanId],
    ]);
    expect(allAttributeText(tracing.spans())).not.toContain("harbour");
  });

  it("names a search over several knowledge bases after all of them and records the query only when content is captured", async () => {
    const first = await knowledgeBase("handbook", "The harbour crane lifts forty tonnes.");
    const second = await knowledgeBase("faq", "Cranes are inspected every spring.");
    tracing.setCaptureContent(true);
    await service.search(await groundwork.principal(), [first.id, second.id], { query: QUERY });
    const spans = tracing.named("search handbook,faq");
    expect(spans).toHaveLength(1);
    expect(spans[0]?.attributes[KNOWLEDGE_BASE_IDS_ATTRIBUTE]).toEqual([first.id, second.id]);
    expect(JSON.parse(spans[0]?.attributes[GEN_AI.inputMessages] as string)).toEqual([
      { role: "user", parts: [{ type: "text", content: QUERY }] },
    ]);
  });
});
