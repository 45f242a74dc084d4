/**
 * Search rules (topK, metadataFilter, degraded modes, refusals), embedding refusal
 * during ingestion with retry, the language reindex and its cancel rule.
 */
import { queryTerms } from "@groundwork/kb";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KbHarness, kbHarness, viewerPrincipal } from "../../../test/kb-test-support.js";
import { bodyOf, onPostgres, queryTestStore } from "../../../test/test-support.js";

type Hit = {
  chunkId: string;
  content: string;
  documentName: string;
  score: number;
  documentVersionId: string;
};

async function upload(
  h: KbHarness,
  kbId: string,
  files: Array<{ name: string; content: string }>,
  metadata?: Record<string, unknown>,
) {
  const response = await h.upload(kbId, files, metadata);
  expect(response.status).toBe(202);
  return (await response.json()) as Array<{
    upload: { document: { id: string }; acceptedVersion: { id: string; versionNo: number } };
  }>;
}

async function search(h: KbHarness, kbId: string, body: Record<string, unknown>) {
  const response = await h.json("POST", `/v1/knowledge-bases/${kbId}/search`, body, "viewer");
  return { status: response.status, body: await bodyOf(response) };
}

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startOpenAIUpstream();
});
afterAll(async () => {
  await upstream.close();
});

/** The keyword index's rows: an FTS5 table on SQLite, tsvectors on PostgreSQL. */
const KEYWORD_TABLE = onPostgres() ? "kb_keywords" : "kb_fts";

describe("search", () => {
  it("topK defaults to 8 and is clamped to 1–100; empty hits are a normal result; query is required", async () => {
    const h = await kbHarness();
    const kb = await h.createKb({ chunkingStrategy: "FIXED", chunkSize: 50, chunkOverlap: 0 });
    const text = Array.from(
      { length: 120 },
      (_, i) => `Sentence ${i} mentions the harbour crane number ${i}.`,
    ).join(" ");
    await upload(h, kb.id as string, [{ name: "cranes.txt", content: text }]);
    await h.drain();
    const [chunks] = await queryTestStore<{ n: number | string }>(
      h.tenant.store,
      "SELECT COUNT(*) AS n FROM kb_chunks WHERE knowledge_base_id = ?",
      [kb.id],
    );
    const chunkCount = Number(chunks?.n);
    expect(chunkCount).toBeGreaterThan(10);
    expect(((await search(h, kb.id as string, { query: "harbour crane" })).body.hits as Hit[]).length).toBe(
      8,
    );
    expect(
      ((await search(h, kb.id as string, { query: "harbour crane", topK: 0 })).body.hits as Hit[]).length,
    ).toBe(1);
    expect(
      ((await search(h, kb.id as string, { query: "harbour crane", topK: 3 })).body.hits as Hit[]).length,
    ).toBe(3);
    const many = (await search(h, kb.id as string, { query: "harbour crane", topK: 1000 })).body
      .hits as Hit[];
    expect(many.length).toBe(Math.min(100, chunkCount));
    const scores = many.map((hit) => hit.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const empty = await search(h, kb.id as string, { query: "zzzqqq", metadataFilter: { team: "none" } });
    expect(empty).toMatchObject({ status: 200, body: { query: "zzzqqq", hits: [] } });
    expect((await search(h, kb.id as string, {})).status).toBe(400);
    expect((await search(h, kb.id as string, { query: "" })).status).toBe(400);
    expect((await search(h, kb.id as string, { query: "x", topK: "many" })).status).toBe(400);
    expect((await search(h, "kb_unknown", { query: "x" })).status).toBe(404);
  });

  it("metadataFilter restricts hits to documents whose metadata matches", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    await upload(
      h,
      kb.id as string,
      [{ name: "sales.txt", content: "Quarterly revenue grew in the north region." }],
      { team: "sales" },
    );
    await upload(
      h,
      kb.id as string,
      [{ name: "ops.txt", content: "Quarterly revenue of the warehouse region." }],
      { team: "ops" },
    );
    await h.drain();
    const all = (await search(h, kb.id as string, { query: "quarterly revenue region" })).body.hits as Hit[];
    expect(all.map((hit) => hit.documentName).sort()).toEqual(["ops.txt", "sales.txt"]);
    const sales = (
      await search(h, kb.id as string, {
        query: "quarterly revenue region",
        metadataFilter: { team: "sales" },
      })
    ).body.hits as Hit[];
    expect(sales.map((hit) => hit.documentName)).toEqual(["sales.txt"]);
    const byFormat = (
      await search(h, kb.id as string, { query: "revenue", metadataFilter: { format: "txt" } })
    ).body.hits as Hit[];
    expect(byFormat).toHaveLength(2);
  });

  it("hierarchical: a child matches, the parent passage is the content and the child is the matchedSpan", async () => {
    const h = await kbHarness();
    const kb = await h.createKb({ chunkSize: 50, chunkOverlap: 10, parentChunkSize: 400 });
    const sentences = Array.from(
      { length: 30 },
      (_, i) => `Paragraph filler sentence number ${i} about ordinary things.`,
    );
    sentences[17] = "The emergency generator is tested every Tuesday at noon.";
    await upload(h, kb.id as string, [{ name: "ops.txt", content: sentences.join(" ") }]);
    await h.drain();
    const hit = (
      (await search(h, kb.id as string, { query: "emergency generator tested" })).body.hits as Array<
        Hit & { matchedSpan?: string }
      >
    )[0];
    expect(hit?.matchedSpan).toContain("emergency generator");
    expect(hit?.content).toContain(hit?.matchedSpan as string);
    expect((hit?.content.length ?? 0) > (hit?.matchedSpan?.length ?? 0)).toBe(true);
  });

  it("degrades to lexical_only when the query embedding fails (BYOK provider down), answering 200", async () => {
    const h = await kbHarness();
    const provider = await h.tenant.store.providers.create({
      organizationId: h.tenant.organizationId,
      name: "openai",
      type: "HOSTED_A",
      config: { baseUrl: upstream.url },
      apiKey: "sk-test",
    });
    const kb = await h.createKb({
      embeddingProviderId: provider.id,
      embeddingModel: "text-embedding-3-small",
    });
    await upload(h, kb.id as string, [
      { name: "a.txt", content: "Turbine blades are inspected with drones." },
    ]);
    await h.drain();
    const healthy = await search(h, kb.id as string, { query: "turbine blades" });
    expect(healthy.status).toBe(200);
    expect(healthy.body).not.toHaveProperty("degraded");
    upstream.handler = () => ({ kind: "error", status: 500 });
    try {
      const degraded = await search(h, kb.id as string, { query: "turbine blades" });
      expect(degraded.status).toBe(200);
      expect(degraded.body.degraded).toBe("lexical_only");
      expect((degraded.body.hits as Hit[])[0]?.content).toContain("Turbine blades");
    } finally {
      upstream.reset();
    }
  });

  it("fuses several knowledge bases into one list; partial_lexical_only when only some fell back", async () => {
    const h = await kbHarness();
    const provider = await h.tenant.store.providers.create({
      organizationId: h.tenant.organizationId,
      name: "openai",
      type: "HOSTED_A",
      config: { baseUrl: upstream.url },
      apiKey: "sk-test",
    });
    const local = await h.createKb();
    const remote = await h.createKb({
      embeddingProviderId: provider.id,
      embeddingModel: "text-embedding-3-small",
    });
    await upload(h, local.id as string, [
      { name: "local.txt", content: "Pallets are wrapped in green film." },
    ]);
    await upload(h, remote.id as string, [{ name: "remote.txt", content: "Pallets are stacked four high." }]);
    await h.drain();
    const service = h.groundwork.knowledge;
    const kbs = await Promise.all(
      [local, remote].map(
        async (kb) => await h.tenant.store.knowledgeBases.get(h.tenant.organizationId, kb.id as string),
      ),
    );
    const principal = viewerPrincipal(h);
    const both = await service.search(
      principal,
      kbs.filter((kb) => kb !== null),
      { query: "pallets" },
    );
    expect(both.degraded).toBeUndefined();
    expect(both.hits.map((hit) => hit.documentName).sort()).toEqual(["local.txt", "remote.txt"]);
    upstream.handler = () => ({ kind: "error", status: 500 });
    try {
      const partial = await service.search(
        principal,
        kbs.filter((kb) => kb !== null),
        { query: "pallets" },
      );
      expect(partial.degraded).toBe("partial_lexical_only");
      expect(partial.hits.map((hit) => hit.documentName).sort()).toEqual(["local.txt", "remote.txt"]);
    } finally {
      upstream.reset();
    }
  });
});

describe("built-in embedding refused (usage used up)", () => {
  it("ingestion ends in ERROR, nothing resumes, search answers 402, retry re-embeds once usage is back", async () => {
    const h = await kbHarness(
      {
        builtin: { baseUrl: upstream.url, apiKey: "k" },
        planAllowanceEur: { free: 5, team: 100, business: 1000, enterprise: null },
      },
      "free",
    );
    const kb = await h.createKb({ embeddingModel: "text-embedding-3-small" });
    await h.tenant.store.usage.record({
      organizationId: h.tenant.organizationId,
      apiKeyId: null,
      model: "text-embedding-3-small",
      surface: "EMBEDDINGS",
      byok: false,
      promptTokens: 1,
      completionTokens: 0,
      cachedTokens: null,
      costEur: 5,
      latencyMs: 1,
      outcome: "ok",
      endUser: null,
    });
    const [entry] = await upload(h, kb.id as string, [
      { name: "a.txt", content: "Ferries leave hourly from pier four." },
    ]);
    const path = `/v1/knowledge-bases/${kb.id}/documents/${entry?.upload.document.id}`;
    await h.drain();
    const failed = await bodyOf(await h.json("GET", `${path}/versions/${entry?.upload.acceptedVersion.id}`));
    expect(failed.status).toBe("ERROR");
    expect(failed.error).toMatch(/used up/);
    // Nothing resumes by itself.
    expect(await h.drain()).toBe(0);
    const refused = await search(h, kb.id as string, { query: "ferries" });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe("usage_exhausted");
    // Retry: 409 while not in ERROR is checked below; here usage becomes available again.
    await h.tenant.store.organizations.setPlan(h.tenant.organizationId, "enterprise");
    const retry = await h.json("POST", `${path}/retry`, undefined, "member");
    expect(retry.status).toBe(202);
    expect((await bodyOf(retry)).status).toBe("PENDING");
    await h.drain();
    const ready = await bodyOf(await h.json("GET", `${path}/versions/${entry?.upload.acceptedVersion.id}`));
    expect(ready).toMatchObject({ status: "READY", error: null });
    const found = await search(h, kb.id as string, { query: "ferries pier" });
    expect((found.body.hits as Hit[])[0]?.content).toContain("pier four");
    const again = await h.json("POST", `${path}/retry`, undefined, "member");
    expect(again.status).toBe(409);
    expect((await h.json("POST", `${path}/retry`, undefined, "viewer")).status).toBe(403);
    expect((await h.json("POST", `/v1/knowledge-bases/${kb.id}/documents/kbd_x/retry`)).status).toBe(404);
  });
});

describe("text-search language change", () => {
  it("reindexes in the background, serving the old language until done", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    await upload(h, kb.id as string, [
      { name: "a.txt", content: "The mechanics were running diagnostics on the engines." },
    ]);
    await h.drain();
    const keywords = h.tenant.store.kbKeywords;
    const keywordHits = async (language: "simple" | "english") =>
      await keywords.search({
        knowledgeBaseId: kb.id as string,
        k: 10,
        documentIds: null,
        language,
        terms: queryTerms("run engine", language),
      });
    expect(await keywordHits("simple")).toEqual([]);

    const patched = await bodyOf(
      await h.json("PATCH", `/v1/knowledge-bases/${kb.id}`, { textSearchLanguage: "english" }),
    );
    expect(patched).toMatchObject({
      textSearchLanguage: "simple",
      pendingTextSearchLanguage: "english",
      configVersion: 2,
    });
    // Omitting the language leaves the pending reindex alone.
    const renamed = await bodyOf(await h.json("PATCH", `/v1/knowledge-bases/${kb.id}`, { name: "Renamed" }));
    expect(renamed).toMatchObject({ textSearchLanguage: "simple", pendingTextSearchLanguage: "english" });

    await h.drain();
    const done = await bodyOf(await h.json("GET", `/v1/knowledge-bases/${kb.id}`));
    expect(done).toMatchObject({ textSearchLanguage: "english", pendingTextSearchLanguage: null });
    expect(await keywordHits("english")).toHaveLength(1);
    // The old language's rows are gone: one language at a time.
    const languages = await queryTestStore<{ language: string }>(
      h.tenant.store,
      `SELECT DISTINCT language FROM ${KEYWORD_TABLE} WHERE knowledge_base_id = ?`,
      [kb.id],
    );
    expect(languages.map((row) => row.language)).toEqual(["english"]);
    // And the HTTP search finds the stemmed form through the keyword leg.
    const result = await search(h, kb.id as string, { query: "runs" });
    expect((result.body.hits as Hit[])[0]?.content).toContain("running diagnostics");
  });

  it("sending the active language while another is pending cancels the reindex and drops its rows", async () => {
    const h = await kbHarness();
    const kb = await h.createKb();
    await upload(h, kb.id as string, [{ name: "a.txt", content: "Walking tours start at the station." }]);
    await h.drain();
    await h.json("PATCH", `/v1/knowledge-bases/${kb.id}`, { textSearchLanguage: "german" });
    // Rows for the pending language may already exist (e.g. from ingestion); the cancel must drop them.
    const service = h.groundwork.knowledge;
    await h.tenant.store.kbKeywords.add(kb.id as string, "german", [
      {
        chunkId: (
          await queryTestStore<{ id: string }>(
            h.tenant.store,
            "SELECT id FROM kb_chunks WHERE knowledge_base_id = ? LIMIT 1",
            [kb.id],
          )
        )[0]?.id as string,
        terms: "x",
      },
    ]);
    const canceled = await bodyOf(
      await h.json("PATCH", `/v1/knowledge-bases/${kb.id}`, { textSearchLanguage: "simple" }),
    );
    expect(canceled).toMatchObject({ textSearchLanguage: "simple", pendingTextSearchLanguage: null });
    const german = await queryTestStore(
      h.tenant.store,
      `SELECT 1 FROM ${KEYWORD_TABLE} WHERE knowledge_base_id = ? AND language = 'german'`,
      [kb.id],
    );
    expect(german).toEqual([]);
    await service.drain();
    const after = await bodyOf(await h.json("GET", `/v1/knowledge-bases/${kb.id}`));
    expect(after).toMatchObject({ textSearchLanguage: "simple", pendingTextSearchLanguage: null });
    expect(
      (await h.tenant.store.knowledgeBases.configVersions(kb.id as string)).map(
        (v) => v.config.textSearchLanguage,
      ),
    ).toEqual(["simple", "german", "simple"]);
  });
});
