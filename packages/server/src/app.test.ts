import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { internalError } from "@groundwork/core";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../test/test-support.js";
import { type App, createApp } from "./app.js";
import { readBody } from "./http/body.js";
import { requirePlan, requireRole } from "./http/guards.js";
import { createLogger } from "./logger.js";

let tenant: TestTenant;
let app: App;
let logLines: string[];

beforeEach(async () => {
  tenant = await createTestTenant("enterprise");
  logLines = [];
  app = createApp({
    store: tenant.store,
    logger: createLogger({ level: "debug", write: (line) => logLines.push(line) }),
    maxBodyBytes: 1024,
  });
  // Routes that exercise the guards and body validation the real endpoints will use.
  app.get("/v1/test/read", requireRole("viewer"), (c) => c.json({ ok: true }));
  app.post("/v1/test/write", requireRole("member"), (c) => c.json({ ok: true }));
  app.delete("/v1/test/thing", requireRole("admin"), (c) => c.body(null, 204));
  app.post("/v1/test/byok", requirePlan("team", "Bring-your-own-key models"), (c) => c.json({ ok: true }));
  app.post("/v1/test/echo", async (c) => {
    const body = await readBody(
      c,
      z.object({
        name: z.string().max(10),
        count: z.number().int().min(0).optional(),
        tags: z.array(z.string()).optional(),
      }),
    );
    return c.json(body);
  });
  app.get("/v1/test/boom", () => {
    throw new Error("database password is hunter2");
  });
  app.get("/v1/test/unavailable", () => {
    throw internalError("nope");
  });
});
afterEach(async () => await tenant.store.close());

describe("health", () => {
  it("answers 200 {status: ok} without credentials", async () => {
    const response = await app.request("/health");
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({ status: "ok" });
  });
});

describe("authentication", () => {
  it("answers a bare 401 when no credentials are sent", async () => {
    const response = await app.request("/v1/test/read");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await response.text()).toBe("");
  });

  it.each([
    ["an unknown key", "Bearer gw_unknownunknownunknownunknownunknownunknown12"],
    ["a malformed header", "Basic dXNlcjpwYXNz"],
    ["an empty bearer", "Bearer "],
  ])("answers 401 with the envelope for %s", async (_, header) => {
    const response = await app.request("/v1/test/read", { headers: { Authorization: header } });
    expect(response.status).toBe(401);
    const body = await bodyOf(response);
    expect(body).toMatchObject({
      error: { type: "authentication_error", code: "invalid_api_key", param: null },
    });
    expect(typeof body.error.message).toBe("string");
  });

  it("rejects a revoked key with the envelope", async () => {
    await tenant.store.apiKeys.revoke(tenant.keys.admin);
    const response = await app.request("/v1/test/read", { headers: bearer(tenant.keys.admin) });
    expect(response.status).toBe(401);
    expect((await bodyOf(response)).error.code).toBe("invalid_api_key");
  });

  it("lets a valid key through", async () => {
    const response = await app.request("/v1/test/read", { headers: bearer(tenant.keys.viewer) });
    expect(response.status).toBe(200);
  });

  it("authenticates before anything else, including unknown routes", async () => {
    expect((await app.request("/v1/nope")).status).toBe(401);
    const response = await app.request("/v1/nope", { headers: bearer(tenant.keys.viewer) });
    expect(response.status).toBe(404);
    expect((await bodyOf(response)).error.code).toBe("not_found");
  });
});

describe("roles", () => {
  it.each([
    ["viewer", "GET", "/v1/test/read", 200],
    ["viewer", "POST", "/v1/test/write", 403],
    ["viewer", "DELETE", "/v1/test/thing", 403],
    ["member", "POST", "/v1/test/write", 200],
    ["member", "DELETE", "/v1/test/thing", 403],
    ["admin", "POST", "/v1/test/write", 200],
    ["admin", "DELETE", "/v1/test/thing", 204],
  ] as const)("%s %s %s → %i", async (role, method, path, status) => {
    const response = await app.request(path, { method, headers: bearer(tenant.keys[role]) });
    expect(response.status).toBe(status);
    if (status === 403) {
      expect(await bodyOf(response)).toMatchObject({
        error: { type: "invalid_request_error", code: "forbidden", param: null },
      });
    }
  });
});

describe("plans", () => {
  it.each([
    ["free", 402],
    ["team", 200],
    ["business", 200],
    ["enterprise", 200],
  ] as const)("a %s organization → %i", async (plan, status) => {
    const key = await tenant.keyFor("member", plan);
    const response = await app.request("/v1/test/byok", { method: "POST", headers: bearer(key) });
    expect(response.status).toBe(status);
    if (status === 402) expect((await bodyOf(response)).error.type).toBe("billing_error");
  });
});

describe("request bodies", () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    app.request("/v1/test/echo", {
      method: "POST",
      body,
      headers: { ...bearer(tenant.keys.member), "content-type": "application/json", ...headers },
    });

  it("accepts a valid body", async () => {
    const response = await post(JSON.stringify({ name: "a", count: 2 }));
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({ name: "a", count: 2 });
  });

  it.each([
    ["malformed JSON", "{name:", null],
    ["an empty body", "", null],
    ["a wrong type", JSON.stringify({ name: 5 }), "name"],
    ["a missing field", JSON.stringify({}), "name"],
    ["an out-of-range number", JSON.stringify({ name: "a", count: -1 }), "count"],
    ["a wrong element type", JSON.stringify({ name: "a", tags: ["x", 3] }), "tags[1]"],
    ["a non-object", "[]", null],
  ])("answers 400 for %s, naming the field", async (_, body, param) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    const envelope = await bodyOf(response);
    expect(envelope.error.type).toBe("invalid_request_error");
    expect(envelope.error.param).toBe(param);
  });

  it("answers 413 for a body over the limit", async () => {
    const response = await post(JSON.stringify({ name: "a".repeat(2000) }));
    expect(response.status).toBe(413);
    expect((await bodyOf(response)).error.code).toBe("payload_too_large");
  });

  it("never answers 5xx to arbitrary bodies", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json().map(String),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        async (body) => {
          const response = await post(body);
          expect([200, 400, 413]).toContain(response.status);
          if (response.status !== 200) expect((await bodyOf(response)).error).toBeDefined();
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("errors, request ids and logs", () => {
  it("maps unexpected errors to a 500 envelope without leaking the message", async () => {
    const response = await app.request("/v1/test/boom", { headers: bearer(tenant.keys.viewer) });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("hunter2");
    expect(JSON.parse(text)).toEqual({
      error: { message: "Internal server error", type: "api_error", param: null, code: "internal_error" },
    });
    expect(logLines.some((line) => line.includes('"level":"error"'))).toBe(true);
  });

  it("sets a request id header, keeping a sane one from the client", async () => {
    const own = await app.request("/health", { headers: { "x-request-id": "trace-123" } });
    expect(own.headers.get("x-request-id")).toBe("trace-123");
    const generated = await app.request("/health", { headers: { "x-request-id": "bad id\n" } });
    expect(generated.headers.get("x-request-id")).toMatch(/^req_/);
    const failed = await app.request("/v1/test/unavailable", { headers: bearer(tenant.keys.viewer) });
    expect(failed.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("logs one structured line per request and never the key", async () => {
    await app.request("/v1/test/read?api_key=leak", { headers: bearer(tenant.keys.viewer) });
    const line = logLines.find((l) => l.includes('"msg":"request"'));
    expect(line).toBeDefined();
    expect(JSON.parse(line ?? "{}")).toMatchObject({
      level: "info",
      method: "GET",
      path: "/v1/test/read",
      status: 200,
      organizationId: tenant.organizationId,
    });
    const all = logLines.join("");
    expect(all).not.toContain(tenant.keys.viewer);
    expect(all).not.toContain("leak");
  });
});

describe("the second-wave groups of PLATFORM.md", () => {
  // The last groups to land answered 501 until they did; each now serves its list path.
  it.each([
    "/v1/experiments",
    "/v1/annotation-queues",
    "/v1/traces",
    "/v1/trace-sessions",
    "/v1/tracing/settings",
    "/v1/analytics/summary",
    "/v1/billing/tier",
  ])("%s answers 200 after authentication", async (path) => {
    expect((await app.request(path)).status).toBe(401);
    expect((await app.request(path, { headers: bearer(tenant.keys.admin) })).status).toBe(200);
  });
});

describe("the README's status table", () => {
  const readme = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8");

  it("has no area left that answers 501", () => {
    const rows = readme.split("\n").filter((line) => line.startsWith("|"));
    expect(rows.some((row) => row.startsWith("| Experiments"))).toBe(true);
    expect(rows.filter((row) => /\| not yet/.test(row) || row.includes("501 not_implemented"))).toEqual([]);
  });
});
