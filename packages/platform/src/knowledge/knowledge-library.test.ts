/**
 * Knowledge bases as a library user sees them: no HTTP, a principal from the
 * platform, plain inputs, and the same errors the API answers.
 */
import { isGroundworkError } from "@groundwork/core";
import { afterEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";

const text = (value: string) => new TextEncoder().encode(value);

let groundwork: Groundwork;
afterEach(async () => {
  await groundwork.close();
});

async function open(): Promise<Groundwork> {
  groundwork = createGroundwork({ store: await openTestStore({ secret: "library-test-secret" }) });
  return groundwork;
}

describe("KnowledgeService as a library", () => {
  it("creates with the API's defaults, ingests, searches by id and resolves citations", async () => {
    const gw = await open();
    const principal = await gw.principal();
    const kb = await gw.knowledge.createKnowledgeBase(principal, {
      name: "Handbook",
      slug: "handbook",
      embeddingProviderId: "builtin",
      embeddingModel: "hash-embedding-1536",
      embeddingDim: 1536,
    });
    expect(kb).toMatchObject({
      chunkingStrategy: "HIERARCHICAL",
      hybridSearchEnabled: true,
      textSearchLanguage: "simple",
    });
    const outcomes = await gw.knowledge.addDocuments(principal, kb.id, [
      {
        filename: "cranes.txt",
        content: text("The harbour crane lifts forty tonnes."),
        metadata: { team: "port" },
      },
      { filename: "empty.txt", content: new Uint8Array() },
    ]);
    expect(outcomes[1]).toEqual({
      filename: "empty.txt",
      error: { code: "empty_file", message: "The file is empty" },
    });
    await gw.knowledge.drain();
    const [listed] = (
      await gw.knowledge.listDocuments(principal.organizationId, kb.id, { page: 0, size: 20 })
    ).items;
    expect(listed?.current?.status).toBe("READY");
    expect(listed?.serving?.id).toBe(listed?.current?.id);
    await gw.knowledge.warm(principal, [kb.id]); // indexes loaded ahead of the first query
    const result = await gw.knowledge.search(principal, [kb.id], {
      query: "harbour crane",
      metadataFilter: { team: "port" },
    });
    const hit = result.hits[0];
    expect(hit?.content).toContain("harbour crane");
    const citation = await gw.knowledge.citation(principal.organizationId, kb.id, hit?.chunkId as string);
    expect(citation).toMatchObject({ textStatus: "AVAILABLE", isCurrentVersion: true });
  });

  it("warms every organization's knowledge bases from a size on, the largest first (a server's start)", async () => {
    const gw = await open();
    const config = {
      embeddingProviderId: "builtin",
      embeddingModel: "hash-embedding-1536",
      embeddingDim: 1536,
    };
    const withDocuments = async (organization: string, slug: string, documents: number) => {
      const principal = await gw.principal(organization);
      const kb = await gw.knowledge.createKnowledgeBase(principal, { ...config, name: slug, slug });
      await gw.knowledge.addDocuments(
        principal,
        kb.id,
        Array.from({ length: documents }, (_, i) => ({
          filename: `d${i}.txt`,
          content: text(`Document ${i} of ${slug}: the harbour crane lifts forty tonnes.`),
        })),
      );
      return { principal, kb };
    };
    const big = await withDocuments("north", "big", 3);
    const small = await withDocuments("south", "small", 1);
    const gone = await withDocuments("south", "gone", 5);
    await gw.knowledge.drain();
    await gw.knowledge.deleteKnowledgeBase(gone.principal, gone.kb.id);

    const warmed = await gw.knowledge.warmServed(1);
    expect(warmed.map(({ id, organizationId, error }) => ({ id, organizationId, error }))).toEqual([
      { id: big.kb.id, organizationId: big.principal.organizationId, error: null },
      { id: small.kb.id, organizationId: small.principal.organizationId, error: null },
    ]);
    const [first, second] = warmed;
    expect(first?.chunks).toBeGreaterThan(second?.chunks ?? Number.POSITIVE_INFINITY);
    expect(await gw.knowledge.warmServed((first?.chunks ?? 0) + 1)).toEqual([]);
    // Warmed indexes answer the first search as before.
    const result = await gw.knowledge.search(big.principal, [big.kb.id], { query: "harbour crane" });
    expect(result.hits.length).toBeGreaterThan(0);
  });

  it("throws the API's errors: validation, catalogue, unknown knowledge base", async () => {
    const gw = await open();
    const principal = await gw.principal();
    const refusal = async (call: () => unknown) => {
      try {
        await call();
      } catch (error) {
        if (isGroundworkError(error))
          return { status: error.status, param: error.param, message: error.message };
        throw error;
      }
      throw new Error("expected a refusal");
    };
    const base = {
      name: "KB",
      slug: "kb",
      embeddingProviderId: "builtin",
      embeddingModel: "hash-embedding-1536",
      embeddingDim: 1536,
    };
    expect(
      await refusal(
        async () => await gw.knowledge.createKnowledgeBase(principal, { ...base, slug: "Not A Slug" }),
      ),
    ).toMatchObject({
      status: 400,
      param: "slug",
    });
    expect(
      await refusal(
        async () =>
          await gw.knowledge.createKnowledgeBase(principal, {
            ...base,
            embeddingModel: "text-embedding-3-small",
          }),
      ),
    ).toMatchObject({
      status: 400,
      param: "embeddingModel",
      message: expect.stringContaining("hash-embedding-1536"),
    });
    expect(await refusal(async () => await gw.knowledge.warm(principal, ["kb_nope"]))).toMatchObject({
      status: 404,
      param: "knowledgeBaseId",
    });
    expect(
      await refusal(async () => await gw.knowledge.knowledgeBase(principal.organizationId, "kb_nope")),
    ).toMatchObject({
      status: 404,
      message: "No knowledge base kb_nope",
    });
    await expect(gw.knowledge.search(principal, ["kb_nope"], { query: "x" })).rejects.toMatchObject({
      status: 404,
    });
  });
});
