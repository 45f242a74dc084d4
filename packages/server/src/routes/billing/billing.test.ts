/**
 * `/v1/billing/*` (PLATFORM.md §15): tier, tiers, limits, available and check per plan,
 * validation, fuzzed bodies, roles, organization isolation — and the enforcement of pages,
 * storage and the request rate through HTTP.
 */
import type { Plan } from "@groundwork/core";
import type { TierOverrides } from "@groundwork/observability";
import { createGroundwork, type Groundwork, storePlanAllowance } from "@groundwork/platform";
import { buildTextPdf } from "@groundwork/testkit";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

/** 2025-01-31T09:15:42.500Z: the month ends tomorrow, the minute in 17.5 s. */
const NOW = Date.UTC(2025, 0, 31, 9, 15, 42, 500);

interface Harness {
  tenant: TestTenant;
  groundwork: Groundwork;
  app: App;
  clock: { now: () => number; set(ms: number): void };
  close(): Promise<void>;
}

const open: Harness[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
});

async function harness(plan: Plan, tiers: TierOverrides = {}): Promise<Harness> {
  const tenant = await createTestTenant(plan);
  let now = NOW;
  const clock = {
    now: () => now,
    set: (ms: number) => {
      now = ms;
    },
  };
  const groundwork = createGroundwork({
    store: tenant.store,
    allowance: storePlanAllowance(tenant.store, { tiers, clock }),
    clock,
  });
  const h = {
    tenant,
    groundwork,
    app: createApp({ groundwork }),
    clock,
    close: async () => {
      await groundwork.close();
      await tenant.store.close();
    },
  };
  open.push(h);
  return h;
}

const get = (h: Harness, key: string, path: string) => h.app.request(path, { headers: bearer(key) });
const check = (h: Harness, key: string, body: unknown) =>
  h.app.request("/v1/billing/check", {
    method: "POST",
    headers: { ...bearer(key), "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

async function charge(tenant: TestTenant, organizationId: string, costEur: number) {
  await tenant.store.usage.record({
    organizationId,
    apiKeyId: null,
    model: "text-embedding-3-small",
    surface: "EMBEDDINGS",
    byok: false,
    promptTokens: 1,
    completionTokens: 0,
    cachedTokens: null,
    costEur,
    latencyMs: 1,
    outcome: "ok",
    endUser: null,
  });
}

const organizationOf = async (h: Harness, key: string) =>
  (await bodyOf(await get(h, key, "/v1/me"))).organizationId as string;

describe("GET /v1/billing/tier and /tiers", () => {
  it("answers the caller's tier with the current UTC month (periodEnd exclusive)", async () => {
    const h = await harness("free");
    const response = await get(h, h.tenant.keys.viewer, "/v1/billing/tier");
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({
      plan: "free",
      name: "Free",
      limits: {
        usage_eur: 5,
        pages: 1000,
        storage_bytes: 1073741824,
        requests_per_minute: 600,
        seats: 5,
        byok: false,
      },
      periodStart: "2025-01-01T00:00:00.000Z",
      periodEnd: "2025-02-01T00:00:00.000Z",
    });
    const enterprise = await bodyOf(
      await get(h, await h.tenant.keyFor("viewer", "enterprise"), "/v1/billing/tier"),
    );
    expect(enterprise).toMatchObject({
      plan: "enterprise",
      name: "Enterprise",
      limits: {
        usage_eur: null,
        pages: null,
        storage_bytes: null,
        requests_per_minute: null,
        seats: null,
        byok: true,
      },
    });
  });

  it("lists every tier in plan order", async () => {
    const h = await harness("team");
    const tiers = (await (await get(h, h.tenant.keys.viewer, "/v1/billing/tiers")).json()) as Array<{
      plan: string;
      name: string;
      limits: Record<string, unknown>;
    }>;
    expect(tiers.map((tier) => [tier.plan, tier.name])).toEqual([
      ["free", "Free"],
      ["team", "Team"],
      ["business", "Business"],
      ["enterprise", "Enterprise"],
    ]);
    expect(tiers[1]?.limits).toEqual({
      usage_eur: 100,
      pages: 20000,
      storage_bytes: 107374182400,
      requests_per_minute: 6000,
      seats: 50,
      byok: true,
    });
    expect(tiers[2]?.limits).toMatchObject({ usage_eur: 1000, pages: 200000, storage_bytes: 1099511627776 });
    expect(Object.keys(tiers[0] ?? {})).toEqual(["plan", "name", "limits"]);
  });
});

describe("GET /v1/billing/limits", () => {
  it("reports each counter of the organization and never another organization's", async () => {
    const h = await harness("free");
    const stranger = await h.tenant.keyFor("admin", "free");
    const theirs = await organizationOf(h, stranger);
    await charge(h.tenant, h.tenant.organizationId, 1.5);
    await charge(h.tenant, theirs, 4);
    await h.tenant.store.billing.recordPages(theirs, Date.UTC(2025, 0, 1), 999);
    const form = new FormData();
    form.append("file", new File(["x".repeat(40)], "a.txt", { type: "text/plain" }));
    form.append("purpose", "knowledge");
    expect(
      (await h.app.request("/v1/files", { method: "POST", headers: bearer(stranger), body: form })).status,
    ).toBe(201);

    const response = await get(h, h.tenant.keys.viewer, "/v1/billing/limits");
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body.plan).toBe("free");
    expect(body.limits).toEqual([
      {
        resource: "usage_eur",
        unit: "eur",
        limit: 5,
        used: 1.5,
        remaining: 3.5,
        resetsAt: "2025-02-01T00:00:00.000Z",
      },
      {
        resource: "pages",
        unit: "pages",
        limit: 1000,
        used: 0,
        remaining: 1000,
        resetsAt: "2025-02-01T00:00:00.000Z",
      },
      {
        resource: "storage_bytes",
        unit: "bytes",
        limit: 1073741824,
        used: 0,
        remaining: 1073741824,
        resetsAt: null,
      },
      {
        resource: "requests_per_minute",
        unit: "requests",
        limit: 600,
        // This request is counted before it is answered.
        used: 1,
        remaining: 599,
        resetsAt: "2025-01-31T09:16:00.000Z",
      },
      // viewer, member and admin keys of the tenant
      { resource: "seats", unit: "keys", limit: 5, used: 3, remaining: 2, resetsAt: null },
      { resource: "byok", unit: "feature", limit: false, used: null, remaining: 0, resetsAt: null },
    ]);
  });

  it("answers null limits and remainders on the enterprise plan", async () => {
    const h = await harness("enterprise");
    const { limits } = (await bodyOf(
      await get(h, h.tenant.keys.viewer, "/v1/billing/limits"),
    )) as unknown as {
      limits: Array<{ resource: string; limit: unknown; remaining: unknown }>;
    };
    for (const entry of limits) {
      expect(entry.limit, entry.resource).toBe(entry.resource === "byok" ? true : null);
      expect(entry.remaining, entry.resource).toBeNull();
    }
  });
});

describe("GET /v1/billing/available", () => {
  it("answers per resource and plan", async () => {
    const h = await harness("free", { free: { seats: 3 } });
    const available = async (key: string, resource: string) =>
      (await bodyOf(await get(h, key, `/v1/billing/available?resource=${resource}`))).available;
    expect(await bodyOf(await get(h, h.tenant.keys.viewer, "/v1/billing/available?resource=pages"))).toEqual({
      resource: "pages",
      available: true,
    });
    expect(await available(h.tenant.keys.viewer, "byok")).toBe(false);
    expect(await available(h.tenant.keys.viewer, "seats")).toBe(false);
    expect(await available(await h.tenant.keyFor("viewer", "team"), "byok")).toBe(true);
    await charge(h.tenant, h.tenant.organizationId, 5);
    expect(await available(h.tenant.keys.viewer, "usage_eur")).toBe(false);
  });

  it("answers 400 naming resource when it is missing or unknown", async () => {
    const h = await harness("free");
    for (const query of ["", "?resource=", "?resource=cpu", "?resource=PAGES"]) {
      const response = await get(h, h.tenant.keys.viewer, `/v1/billing/available${query}`);
      expect(response.status, query).toBe(400);
      expect((await bodyOf(response)).error).toMatchObject({
        type: "invalid_request_error",
        code: "invalid_request",
        param: "resource",
      });
    }
  });
});

describe("POST /v1/billing/check", () => {
  it("answers allowed, reason, remaining before the amount and resetsAt", async () => {
    const h = await harness("free");
    await charge(h.tenant, h.tenant.organizationId, 4.5);
    const key = h.tenant.keys.viewer;
    expect(await bodyOf(await check(h, key, { resource: "usage_eur" }))).toEqual({
      allowed: false,
      reason: "usage_exhausted",
      remaining: 0.5,
      resetsAt: "2025-02-01T00:00:00.000Z",
    });
    expect(await bodyOf(await check(h, key, { resource: "usage_eur", amount: 0.5 }))).toMatchObject({
      allowed: true,
      reason: null,
      remaining: 0.5,
    });
    expect(await bodyOf(await check(h, key, { resource: "pages", amount: 1001 }))).toMatchObject({
      allowed: false,
      reason: "pages_exhausted",
      remaining: 1000,
    });
    expect(await bodyOf(await check(h, key, { resource: "storage_bytes", amount: 2 ** 31 }))).toEqual({
      allowed: false,
      reason: "storage_exhausted",
      remaining: 1073741824,
      resetsAt: null,
    });
    expect(
      await bodyOf(await check(h, key, { resource: "requests_per_minute", amount: 1000 })),
    ).toMatchObject({
      allowed: false,
      reason: "rate_limit_exceeded",
      resetsAt: "2025-01-31T09:16:00.000Z",
    });
    expect(await bodyOf(await check(h, key, { resource: "seats", amount: 3 }))).toMatchObject({
      allowed: false,
      reason: "seats_exhausted",
      remaining: 2,
    });
    expect(await bodyOf(await check(h, key, { resource: "byok" }))).toEqual({
      allowed: false,
      reason: "plan_required",
      remaining: 0,
      resetsAt: null,
    });
    expect(
      await bodyOf(
        await check(h, await h.tenant.keyFor("viewer", "enterprise"), { resource: "pages", amount: 1e9 }),
      ),
    ).toEqual({
      allowed: true,
      reason: null,
      remaining: null,
      resetsAt: "2025-02-01T00:00:00.000Z",
    });
  });

  it("answers 400 with param for invalid bodies", async () => {
    const h = await harness("free");
    const cases: Array<[unknown, string | null]> = [
      [{}, "resource"],
      [{ resource: "cpu" }, "resource"],
      [{ resource: 3 }, "resource"],
      [{ resource: "pages", amount: -1 }, "amount"],
      [{ resource: "pages", amount: "1" }, "amount"],
      [{ resource: "pages", amount: null }, "amount"],
      [[], null],
      ["not json", null],
      ["", null],
    ];
    for (const [body, param] of cases) {
      const response = await check(h, h.tenant.keys.viewer, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await bodyOf(response)).error).toMatchObject({ type: "invalid_request_error", param });
    }
  });

  it("never answers 5xx to fuzzed bodies; every role may check; no key is 401", async () => {
    const h = await harness("business");
    const field = fc.oneof(
      fc.string(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            resource: fc.oneof(
              fc.constantFrom("usage_eur", "pages", "storage_bytes", "requests_per_minute", "seats", "byok"),
              field,
            ),
            amount: fc.oneof(fc.double(), field),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const response = await check(h, h.tenant.keys.viewer, body);
          expect([200, 400]).toContain(response.status);
          const answer = await bodyOf(response);
          if (response.status === 200) {
            expect(answer.remaining === null || (answer.remaining as number) >= 0).toBe(true);
            expect(answer.allowed).toBe(
              answer.remaining === null || (answer.remaining as number) >= ((body.amount as number) ?? 1),
            );
          }
        },
      ),
      { numRuns: 80 },
    );
    for (const role of ["viewer", "member", "admin"] as const) {
      expect((await check(h, h.tenant.keys[role], { resource: "pages" })).status).toBe(200);
      for (const path of [
        "/v1/billing/tier",
        "/v1/billing/tiers",
        "/v1/billing/limits",
        "/v1/billing/available?resource=seats",
      ])
        expect((await get(h, h.tenant.keys[role], path)).status, path).toBe(200);
    }
    expect((await h.app.request("/v1/billing/limits")).status).toBe(401);
  });
});

describe("enforcement", () => {
  const convert = (
    h: Harness,
    key: string,
    bytes: Uint8Array,
    filename: string,
    path = "/v1/convert/source",
  ) =>
    h.app.request(path, {
      method: "POST",
      headers: { ...bearer(key), "Content-Type": "application/json" },
      body: JSON.stringify({
        sources: [{ kind: "base64", filename, content: Buffer.from(bytes).toString("base64") }],
        options: { outputFormats: ["TEXT"] },
      }),
    });
  const pagesUsed = async (h: Harness, key: string) =>
    (
      (await bodyOf(await get(h, key, "/v1/billing/limits"))).limits as Array<{
        resource: string;
        used: number;
      }>
    ).find((entry) => entry.resource === "pages")?.used;

  it("counts converted pages (a document without pages counts 1) and refuses /v1/convert/* with 402 pages_exhausted", async () => {
    const h = await harness("free", { free: { pages: 4 } });
    const key = h.tenant.keys.member;
    expect((await convert(h, key, buildTextPdf(2, 3), "two.pdf")).status).toBe(200);
    expect(await pagesUsed(h, key)).toBe(2);
    expect((await convert(h, key, new TextEncoder().encode("plain text"), "note.txt")).status).toBe(200);
    expect(await pagesUsed(h, key)).toBe(3);
    // One page left: the conversion starts, and its pages are counted afterwards.
    expect((await convert(h, key, buildTextPdf(2, 3), "again.pdf")).status).toBe(200);
    expect(await pagesUsed(h, key)).toBe(5);
    for (const path of ["/v1/convert/source", "/v1/convert/source/async"]) {
      const refused = await convert(h, key, buildTextPdf(1, 3), "more.pdf", path);
      expect(refused.status, path).toBe(402);
      expect((await bodyOf(refused)).error).toMatchObject({ type: "billing_error", code: "pages_exhausted" });
    }
    const form = new FormData();
    form.append("files", new File(["text"], "a.txt", { type: "text/plain" }));
    const upload = await h.app.request("/v1/convert/file", {
      method: "POST",
      headers: bearer(key),
      body: form,
    });
    expect(upload.status).toBe(402);
    // Another organization on the same plan converts as usual.
    expect(
      (await convert(h, await h.tenant.keyFor("member", "free"), buildTextPdf(1, 3), "mine.pdf")).status,
    ).toBe(200);
    // The next month starts from zero.
    h.clock.set(Date.UTC(2025, 1, 1));
    expect(await pagesUsed(h, key)).toBe(0);
    expect((await convert(h, key, buildTextPdf(1, 3), "feb.pdf")).status).toBe(200);
  });

  it("counts the pages of async conversions when the task finishes", async () => {
    const h = await harness("free", { free: { pages: 10 } });
    const key = h.tenant.keys.member;
    const accepted = await convert(h, key, buildTextPdf(3, 3), "three.pdf", "/v1/convert/source/async");
    expect(accepted.status).toBe(202);
    const { taskId } = await bodyOf(accepted);
    expect(await pagesUsed(h, key)).toBe(0);
    await h.groundwork.start();
    const done = await bodyOf(await get(h, key, `/v1/convert/tasks/${taskId as string}?wait=30`));
    expect(done.taskStatus).toBe("success");
    expect(await pagesUsed(h, key)).toBe(3);
  });

  it("refuses POST /v1/files with 402 storage_exhausted past the plan's bytes", async () => {
    const h = await harness("free", { free: { storage_bytes: 150 } });
    const upload = (key: string, size: number) => {
      const form = new FormData();
      form.append("file", new File(["y".repeat(size)], "f.txt", { type: "text/plain" }));
      form.append("purpose", "user_data");
      return h.app.request("/v1/files", { method: "POST", headers: bearer(key), body: form });
    };
    expect((await upload(h.tenant.keys.member, 100)).status).toBe(201);
    const refused = await upload(h.tenant.keys.member, 51);
    expect(refused.status).toBe(402);
    expect((await bodyOf(refused)).error).toMatchObject({ type: "billing_error", code: "storage_exhausted" });
    expect((await upload(h.tenant.keys.member, 50)).status).toBe(201);
    // Another organization's bytes are its own.
    expect((await upload(await h.tenant.keyFor("member", "free"), 150)).status).toBe(201);
  });

  it("refuses knowledge-base uploads and skill imports with 402 storage_exhausted, counting what they store", async () => {
    const h = await harness("free", { free: { storage_bytes: 2000 } });
    const admin = h.tenant.keys.admin;
    const json = (path: string, body: unknown) =>
      h.app.request(path, {
        method: "POST",
        headers: { ...bearer(admin), "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const kb = await bodyOf(
      await json("/v1/knowledge-bases", {
        name: "KB",
        slug: "kb",
        embeddingProviderId: "builtin",
        embeddingModel: "hash-embedding-1536",
        embeddingDim: 1536,
      }),
    );
    const upload = (content: string) => {
      const form = new FormData();
      form.append("files", new File([content], `doc-${content.length}.txt`, { type: "text/plain" }));
      return h.app.request(`/v1/knowledge-bases/${kb.id as string}/documents`, {
        method: "POST",
        headers: bearer(admin),
        body: form,
      });
    };
    expect((await upload("a".repeat(1500))).status).toBe(202);
    const refused = await upload("b".repeat(600));
    expect(refused.status).toBe(402);
    expect((await bodyOf(refused)).error).toMatchObject({ type: "billing_error", code: "storage_exhausted" });

    const skill = await json("/v1/skills/import", {
      files: { "SKILL.md": `---\nname: notes\ndescription: Notes\n---\n${"x".repeat(600)}\n` },
    });
    expect(skill.status).toBe(402);
    expect((await bodyOf(skill)).error.code).toBe("storage_exhausted");
    const small = await json("/v1/skills/import", {
      files: { "SKILL.md": "---\nname: notes\ndescription: Notes\n---\nShort.\n" },
    });
    expect(small.status).toBe(201);
    const storage = (
      (await bodyOf(await get(h, admin, "/v1/billing/limits"))).limits as Array<{
        resource: string;
        used: number;
      }>
    ).find((entry) => entry.resource === "storage_bytes");
    expect(storage?.used).toBeGreaterThan(1500);
    expect(storage?.used).toBeLessThanOrEqual(2000);
  });

  it("answers 429 rate_limit_exceeded with Retry-After to the next UTC minute, per organization", async () => {
    const h = await harness("free", { free: { requests_per_minute: 3 } });
    const key = h.tenant.keys.viewer;
    for (let i = 0; i < 3; i++) expect((await get(h, key, "/v1/me")).status).toBe(200);
    const refused = await get(h, h.tenant.keys.admin, "/v1/billing/tiers");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("18");
    expect((await bodyOf(refused)).error).toMatchObject({
      type: "rate_limit_error",
      code: "rate_limit_exceeded",
    });
    // Another organization, and the enterprise plan, are not affected.
    expect((await get(h, await h.tenant.keyFor("viewer", "free"), "/v1/me")).status).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await get(h, await h.tenant.keyFor("viewer", "enterprise"), "/v1/me")).status).toBe(200);
    h.clock.set(Date.UTC(2025, 0, 31, 9, 15, 59, 100));
    expect((await get(h, key, "/v1/me")).headers.get("Retry-After")).toBe("1");
    h.clock.set(Date.UTC(2025, 0, 31, 9, 16));
    expect((await get(h, key, "/v1/me")).status).toBe(200);
    // /health is not a /v1 request.
    expect((await h.app.request("/health")).status).toBe(200);
  });
});
