/**
 * `GET /v1/analytics/*` over HTTP: query validation (400 naming the parameter), fuzzed queries
 * never 5xx, every role reads, another organization's usage is never counted, and a failed
 * upstream call recorded as the caller saw it (502 upstream_error) shows up in the errors.
 */
import { createFastFetch } from "@groundwork/gateway";
import { createStoreGateway } from "@groundwork/platform";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  bearer,
  bodyOf,
  createTestTenant,
  queryTestStore,
  type TestTenant,
} from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";
import { SERVER_SETTING_NAMES } from "../../config.js";

const PATHS = [
  "/v1/analytics/summary",
  "/v1/analytics/timeseries",
  "/v1/analytics/providers",
  "/v1/analytics/errors",
  "/v1/analytics/schemas",
  "/v1/analytics/quality",
  "/v1/analytics/quality/trend",
];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let builtin: Upstream;
let tenant: TestTenant;
let app: App;

beforeAll(async () => {
  builtin = await startOpenAIUpstream({ models: ["gw-chat-1"] });
});
afterAll(async () => {
  await builtin.close();
});

beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  builtin.reset();
  const gateway = createStoreGateway(tenant.store, {
    builtin: { baseUrl: builtin.url, apiKey: "builtin-secret" },
    fetch: createFastFetch(),
    byokConcurrency: 4,
    builtinSetting: SERVER_SETTING_NAMES.builtin,
  });
  app = createApp({ store: tenant.store, gateway, builtinConfigured: true });
});
afterEach(async () => await tenant.store.close());

const get = (path: string, key = tenant.keys.viewer) => app.request(path, { headers: bearer(key) });
const chat = (key = tenant.keys.member) =>
  app.request("/v1/chat/completions", {
    method: "POST",
    headers: { ...bearer(key), "content-type": "application/json" },
    body: JSON.stringify({ model: "gw-chat-1", messages: [{ role: "user", content: "hello" }] }),
  });

describe("GET /v1/analytics/*", () => {
  it("answers every endpoint to a Viewer, with ISO instants", async () => {
    for (const path of PATHS) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      const body = await bodyOf(response);
      expect(body.from, path).toMatch(ISO);
      expect(body.to, path).toMatch(ISO);
      expect(Date.parse(body.to as string) - Date.parse(body.from as string)).toBe(7 * 86_400_000);
    }
    const series = await bodyOf(await get("/v1/analytics/timeseries"));
    expect(series.bucket).toBe("day");
    const points = series.points as Array<{ start: string }>;
    expect(points.length).toBe(8); // 7 days from an unaligned instant touch 8 UTC days
    expect(points.every((point) => ISO.test(point.start) && point.start.endsWith("T00:00:00.000Z"))).toBe(
      true,
    );
    for (const key of [tenant.keys.member, tenant.keys.admin]) {
      expect((await get("/v1/analytics/summary", key)).status).toBe(200);
    }
  });

  it("refuses bad queries with 400 naming the parameter", async () => {
    const cases: Array<[string, string]> = [
      ["from=yesterday", "from"],
      ["to=2025-01-01", "to"],
      ["to=2025-01-01T00:00:00", "to"],
      ["from=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z", "from"],
      ["from=2025-01-01T00:00:00Z&to=2025-01-01T00:00:00Z", "from"],
      ["from=2025-01-01T00:00:00Z&to=2025-04-03T00:00:01Z", "from"],
      ["bucket=week", "bucket"],
      ["from=2025-01-01T00:00:00Z&to=2025-01-08T00:00:01Z&bucket=hour", "bucket"],
      ["surface=TEXT", "surface"],
      ["byok=yes", "byok"],
      ["model=", "model"],
      ["schemaId=", "schemaId"],
      ["scoreName=", "scoreName"],
    ];
    for (const path of PATHS) {
      for (const [query, param] of cases) {
        const response = await get(`${path}?${query}`);
        expect(response.status, `${path}?${query}`).toBe(400);
        expect((await bodyOf(response)).error, `${path}?${query}`).toMatchObject({
          type: "invalid_request_error",
          param,
        });
      }
    }
    // The limits themselves are allowed.
    const edge = "from=2025-01-01T00:00:00Z&to=2025-04-03T00:00:00Z";
    expect((await get(`/v1/analytics/timeseries?${edge}`)).status).toBe(200);
    const hourly = await get(
      "/v1/analytics/timeseries?from=2025-01-01T00:00:00Z&to=2025-01-08T00:00:00Z&bucket=hour",
    );
    expect(((await bodyOf(hourly)).points as unknown[]).length).toBe(168);
  });

  it("never answers 5xx to fuzzed queries", async () => {
    const names = ["from", "to", "bucket", "model", "surface", "byok", "schemaId", "scoreName", "page"];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.array(fc.tuple(fc.constantFrom(...names), fc.string({ maxLength: 30 })), { maxLength: 4 }),
        async (path, pairs) => {
          const query = new URLSearchParams(pairs).toString();
          const response = await get(`${path}?${query}`);
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 80 },
    );
  });

  it("records a failed upstream call as 502 upstream_error and lists it in errors, for this organization only", async () => {
    builtin.enqueue({ text: "Hi", usage: { inputTokens: 3, outputTokens: 1 } });
    expect((await chat()).status).toBe(200);
    builtin.enqueue({ kind: "error", status: 500 });
    const failed = await chat();
    expect(failed.status).toBe(502);
    expect((await bodyOf(failed)).error.code).toBe("upstream_error");
    // Refused before a model was called: no row.
    const invalid = await app.request("/v1/chat/completions", {
      method: "POST",
      headers: { ...bearer(tenant.keys.member), "content-type": "application/json" },
      body: JSON.stringify({ model: "gw-chat-1" }),
    });
    expect(invalid.status).toBe(400);

    const stranger = await tenant.keyFor("viewer", "enterprise");
    builtin.enqueue({ kind: "error", status: 500 });
    expect((await chat(await tenant.keyFor("member", "enterprise"))).status).toBe(502);

    const errors = await bodyOf(await get("/v1/analytics/errors"));
    expect(errors.total).toBe(1);
    expect(errors.errors).toEqual([
      { code: "upstream_error", status: 502, count: 1, lastAt: expect.stringMatching(ISO) },
    ]);
    const summary = await bodyOf(await get("/v1/analytics/summary"));
    expect(summary).toMatchObject({
      requests: 2,
      errors: 1,
      errorRate: 0.5,
      promptTokens: expect.any(Number),
    });
    expect(summary.latencyP50Ms).toEqual(expect.any(Number));
    const providers = await bodyOf(await get("/v1/analytics/providers"));
    expect(providers.providers).toEqual([
      expect.objectContaining({ provider: "builtin", requests: 2, errors: 1 }),
    ]);
    // The other organization sees only its own failure.
    const theirs = await bodyOf(await get("/v1/analytics/summary", stranger));
    expect(theirs).toMatchObject({ requests: 1, errors: 1 });
    expect(
      (await tenant.store.usage.list(tenant.organizationId)).map((row) => [row.status, row.errorCode]),
    ).toEqual([
      [502, "upstream_error"],
      [null, null],
    ]);
  });

  it("reads an extraction's quality facts, written once when it finished", async () => {
    const send = async (path: string, body: unknown) => {
      const response = await app.request(path, {
        method: "POST",
        headers: { ...bearer(tenant.keys.member), "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBe(201);
      return bodyOf(response);
    };
    const schema = await send("/v1/schemas", { name: "Invoice" });
    await send(`/v1/schemas/${schema.id}/versions`, {
      jsonSchema: {
        type: "object",
        required: ["vendor", "number"],
        properties: { vendor: { type: "string" }, number: { type: "string" } },
      },
    });
    builtin.enqueue({ text: JSON.stringify({ vendor: "Acme Tools", number: "INV-77" }) });
    const extraction = await send("/v1/extractions", {
      schemaId: schema.id,
      inputText: "Invoice INV-77 from Acme Tools",
      model: "gw-chat-1",
    });
    expect(extraction.status).toBe("COMPLETED");
    const fields = (
      extraction.result as {
        resultMetadata: { scoring: { fields: Record<string, { confidence: { score: number } }> } };
      }
    ).resultMetadata.scoring.fields;
    const scores = Object.values(fields).map((field) => field.confidence.score);
    expect(scores).toHaveLength(2);
    // Stored with the row, before any analytics read.
    const [stored] = await queryTestStore<{ q: number | boolean; confidence: number }>(
      tenant.store,
      "SELECT quality_computed AS q, confidence FROM extractions WHERE id = ?",
      [extraction.id],
    );
    // SQLite answers the flag as 1, PostgreSQL as true.
    expect({ ...stored, q: Boolean(stored?.q) }).toEqual({
      q: true,
      confidence: ((scores[0] as number) + (scores[1] as number)) / 2,
    });
    const quality = await bodyOf(await get("/v1/analytics/quality"));
    expect(quality).toMatchObject({
      extractions: 1,
      failureRate: 0,
      meanConfidence: ((scores[0] as number) + (scores[1] as number)) / 2,
      flaggedShare: 0,
      validationFailureRate: 0,
    });
    const schemas = await bodyOf(await get(`/v1/analytics/schemas?schemaId=${schema.id}`));
    expect(schemas.schemas).toEqual([
      expect.objectContaining({ schemaId: schema.id, schemaName: "Invoice", completed: 1 }),
    ]);
  });

  it("counts only the organization's extractions and scores", async () => {
    const other = await tenant.store.organizations.create("other", "enterprise");
    await tenant.store.extractions.create({
      organizationId: other.id,
      schemaId: "sch_x",
      schemaVersionId: "scv_x",
      status: "FAILED",
      strategy: "SINGLE_SHOT",
      model: "gw-chat-1",
      inputText: "x",
      imageCount: 0,
      inputTokens: 1,
    });
    expect(await bodyOf(await get("/v1/analytics/quality"))).toMatchObject({
      extractions: 0,
      failureRate: null,
      meanConfidence: null,
      humanScores: [],
    });
    expect((await bodyOf(await get("/v1/analytics/schemas"))).schemas).toEqual([]);
    expect((await bodyOf(await get("/v1/analytics/schemas?schemaId=sch_x"))).schemas).toEqual([]);
  });
});
