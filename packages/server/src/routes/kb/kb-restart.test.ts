/**
 * Ingestion survives a server restart mid-way: the worker dies during EMBEDDING,
 * the database is closed and opened again by a new server, and the job (its lease
 * lapsed) resumes — re-using the vectors already stored — until READY.
 */
import type { EmbeddingsBody } from "@groundwork/gateway";
import { createStoreGateway, KnowledgeService } from "@groundwork/platform";
import { describe, expect, it } from "vitest";
import { bearer, bodyOf, openTestDatabase } from "../../../test/test-support.js";
import { createApp } from "../../app.js";

describe("restart mid-ingestion", () => {
  it("resumes from the stored chunks and vectors after the lease lapses", async () => {
    const database = await openTestDatabase();
    const leaseMs = 300;

    // ---- first server: the worker is killed on the third embedding call ----
    const store1 = await database.open({ secret: "restart-test-master-secret" });
    const org = await store1.organizations.create("acme", "enterprise");
    const key = (await store1.apiKeys.create({ organizationId: org.id, role: "admin" })).key;
    const gateway1 = createStoreGateway(store1);
    let calls1 = 0;
    let reachedThird: () => void = () => {};
    const third = new Promise<void>((resolve) => {
      reachedThird = resolve;
    });
    const stalling = Object.create(gateway1) as typeof gateway1;
    stalling.embeddings = async (body: EmbeddingsBody, context) => {
      calls1++;
      if (calls1 === 3) {
        reachedThird();
        // Hang like a process that froze; only the worker's stop (the "crash") ends it.
        await new Promise((_, reject) =>
          context.signal?.addEventListener("abort", () => reject(new Error("killed"))),
        );
      }
      return gateway1.embeddings(body, context);
    };
    const service1 = new KnowledgeService(store1, stalling, { leaseMs, pollMs: 20 });
    const app1 = createApp({ store: store1, gateway: gateway1 });
    const created = await app1.request("/v1/knowledge-bases", {
      method: "POST",
      headers: { ...bearer(key), "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "Manuals",
        slug: "manuals",
        embeddingProviderId: "builtin",
        embeddingModel: "hash-embedding-1536",
        embeddingDim: 1536,
        chunkingStrategy: "FIXED",
        chunkSize: 50,
        chunkOverlap: 0,
      }),
    });
    const kb = await bodyOf(created);
    const text = Array.from(
      { length: 600 },
      (_, i) => `Step ${i}: tighten bolt ${i} to the rated torque.`,
    ).join(" ");
    const accepted = await store1.knowledgeBases.acceptUpload({
      knowledgeBase:
        (await store1.knowledgeBases.get(org.id, kb.id as string)) ??
        (() => {
          throw new Error("no kb");
        })(),
      filename: "torque.txt",
      mime: "text/plain",
      bytes: new TextEncoder().encode(text),
      metadata: {},
      apiKeyId: null,
    });
    await service1.enqueueIngest(accepted.revision);
    service1.startWorker();
    await third;
    expect((await store1.knowledgeBases.getRevision(accepted.revision.id))?.status).toBe("EMBEDDING");
    const embeddedBefore = (await store1.kbVectors.embeddedChunkIds(accepted.revision.id)).size;
    expect(embeddedBefore).toBe(2 * 64);
    await service1.stopWorker(); // the "crash": the job is left running with a lease that lapses
    await store1.close();

    // ---- second server on the same database ----
    const store2 = await database.open({ secret: "restart-test-master-secret" });
    const gateway2 = createStoreGateway(store2);
    let calls2 = 0;
    const counting = Object.create(gateway2) as typeof gateway2;
    counting.embeddings = (body: EmbeddingsBody, context) => {
      calls2++;
      return gateway2.embeddings(body, context);
    };
    const service2 = new KnowledgeService(store2, counting, { leaseMs, pollMs: 20 });
    service2.startWorker();
    const deadline = Date.now() + 15_000;
    while (
      (await store2.knowledgeBases.getRevision(accepted.revision.id))?.status !== "READY" &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await service2.stopWorker();
    const revision = await store2.knowledgeBases.getRevision(accepted.revision.id);
    expect(revision?.status).toBe("READY");
    const indexed = (await store2.knowledgeBases.indexedChunks(accepted.revision.id)).length;
    // Only the chunks without a vector were embedded again (two batches were kept).
    expect(calls2).toBe(Math.ceil((indexed - embeddedBefore) / 64));
    const app2 = createApp({ store: store2, gateway: gateway2 });
    const search = await app2.request(`/v1/knowledge-bases/${kb.id}/search`, {
      method: "POST",
      headers: { ...bearer(key), "Content-Type": "application/json" },
      body: JSON.stringify({ query: "bolt 599" }),
    });
    const hits = (await bodyOf(search)).hits as Array<{ content: string }>;
    expect(hits[0]?.content).toContain("bolt 599");
    await store2.close();
    database.remove();
  }, 60_000);
});
