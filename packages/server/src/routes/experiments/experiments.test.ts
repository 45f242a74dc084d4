/**
 * `/v1/experiments…` (PLATFORM.md §11) over HTTP against a scripted upstream: the whole flow
 * (experiment, variants, runs, results, baseline, regression, comparison), body and query
 * validation (400 + param), fuzzed bodies never 5xx, roles and organization isolation.
 */
import type { Groundwork } from "@groundwork/platform";
import { type JsonValue, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agentTenant } from "../../../test/agent-tenant-support.js";
import { bearer, bodyOf, type TestTenant } from "../../../test/test-support.js";
import type { App } from "../../app.js";

let upstream: Upstream;
let tenant: TestTenant;
let groundwork: Groundwork;
let app: App;
/** A Member of another organization. */
let stranger: string;

/** `q<i>` → `a<i>` for `good-*` models; `bad-*` models answer odd items wrong. */
function answer(request: { body: JsonValue | undefined }) {
  const body = request.body as { model?: string; messages?: Array<{ role: string; content: string }> };
  const question = body.messages?.at(-1)?.content ?? "";
  const index = Number(/q(\d+)/.exec(question)?.[1] ?? -1);
  const right = (body.model ?? "").startsWith("good") || index % 2 === 0;
  return { text: right ? `a${index}` : "wrong", usage: { inputTokens: 5, outputTokens: 1 } };
}

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ handler: answer });
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.reset();
  ({ tenant, groundwork, app, stranger } = await agentTenant(upstream.url));
});

const call = (key: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
const member = (method: string, path: string, body?: unknown) => call(tenant.keys.member, method, path, body);
const viewer = (method: string, path: string) => call(tenant.keys.viewer, method, path);

async function created(response: Response, status = 201) {
  const body = await bodyOf(response);
  expect(response.status, JSON.stringify(body)).toBe(status);
  return body;
}

/** A dataset of `count` items with a frozen version, and an experiment over it. */
async function experiment(count = 4): Promise<{ id: string; datasetId: string }> {
  const dataset = await created(await member("POST", "/v1/datasets", { name: `ds-${Math.random()}` }));
  const items = Array.from({ length: count }, (_, i) => ({ input: `q${i}`, expectedOutput: `a${i}` }));
  await created(await member("POST", `/v1/datasets/${dataset.id}/items/batch`, { items }));
  await created(await member("POST", `/v1/datasets/${dataset.id}/versions`, {}));
  const body = await created(
    await member("POST", "/v1/experiments", {
      name: `exp-${Math.random()}`,
      datasetId: dataset.id,
      evaluators: [{ type: "exact_match" }, { name: "has-a", type: "contains", params: { value: "a" } }],
    }),
  );
  return { id: body.id as string, datasetId: dataset.id as string };
}

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe("experiments over HTTP", () => {
  it("creates, adds variants, runs (202), reads runs and results, sets a baseline, regression, comparison", async () => {
    const { id, datasetId } = await experiment(4);
    const good = await created(
      await member("POST", `/v1/experiments/${id}/variants`, {
        name: "good",
        kind: "model",
        model: "good-1",
      }),
    );
    expect(good).toEqual({
      id: expect.stringMatching(/^var_/),
      object: "experiment_variant",
      experimentId: id,
      name: "good",
      kind: "model",
      model: "good-1",
      params: {},
      createdAt: ISO,
      updatedAt: ISO,
    });
    const bad = await created(
      await member("POST", `/v1/experiments/${id}/variants`, {
        name: "bad",
        kind: "model",
        model: "bad-1",
        params: { maxTokens: 20 },
      }),
    );
    const read = await bodyOf(await viewer("GET", `/v1/experiments/${id}`));
    expect(read).toMatchObject({
      id,
      object: "experiment",
      datasetId,
      datasetVersionId: null,
      baselineRunId: null,
      evaluators: [
        { name: "exact_match", type: "exact_match", params: {} },
        { name: "has-a", type: "contains", params: { value: "a" } },
      ],
      variants: [{ id: good.id }, { id: bad.id }],
      createdAt: ISO,
    });
    expect(await bodyOf(await viewer("GET", `/v1/experiments/${id}/variants`))).toHaveLength(2);
    expect(await bodyOf(await viewer("GET", `/v1/experiments?datasetId=${datasetId}`))).toMatchObject({
      totalElements: 1,
      content: [{ id }],
    });

    const started = await created(await member("POST", `/v1/experiments/${id}/runs`), 202);
    const runs = started.runs as Array<{ id: string; status: string }>;
    expect(runs.map((run) => run.status)).toEqual(["queued", "queued"]);
    await groundwork.experimentRuns.drain();
    const goodRun = await bodyOf(await viewer("GET", `/v1/experiments/${id}/runs/${runs[0]?.id}`));
    expect(goodRun).toEqual({
      id: runs[0]?.id,
      object: "experiment_run",
      experimentId: id,
      variantId: good.id,
      variantName: "good",
      datasetVersionId: expect.stringMatching(/^dsv_/),
      status: "completed",
      progress: { total: 4, completed: 4, failed: 0 },
      scores: {
        exact_match: { mean: 1, count: 4, passRate: 1 },
        "has-a": { mean: 1, count: 4, passRate: 1 },
      },
      isBaseline: false,
      error: null,
      usage: { inputTokens: 20, outputTokens: 4, costEur: expect.any(Number) },
      createdAt: ISO,
      startedAt: ISO,
      completedAt: ISO,
    });
    const results = await bodyOf(
      await viewer("GET", `/v1/experiments/${id}/runs/${runs[1]?.id}/results?size=2`),
    );
    expect(results).toMatchObject({ totalElements: 4, totalPages: 2, size: 2 });
    expect((results.content as unknown[])[1]).toEqual({
      id: expect.stringMatching(/^xres_/),
      object: "experiment_run_result",
      runId: runs[1]?.id,
      datasetItemId: expect.stringMatching(/^dsi_/),
      status: "completed",
      input: "q1",
      expectedOutput: "a1",
      output: "wrong",
      error: null,
      latencyMs: expect.any(Number),
      usage: { inputTokens: 5, outputTokens: 1, costEur: expect.any(Number) },
      traceId: expect.stringMatching(/^trc_/),
      scores: [
        { name: "exact_match", value: 0, passed: false, comment: expect.any(String), error: null },
        { name: "has-a", value: 0, passed: false, comment: expect.any(String), error: null },
      ],
      createdAt: ISO,
    });
    const resultId = (results.content as Array<{ id: string }>)[0]?.id;
    // Each item is its own trace (PLATFORM.md §13), the variant's model call a child of it.
    const traceId = (results.content as Array<{ traceId: string }>)[1]?.traceId;
    const itemTrace = await bodyOf(await viewer("GET", `/v1/traces/${traceId}`));
    expect(itemTrace).toMatchObject({ kind: "experiment", status: "ok", spanCount: 2, inputTokens: 5 });
    expect(itemTrace.name).toMatch(/^experiment_item /);
    expect((itemTrace.spans as Array<{ children: Array<{ name: string }> }>)[0]?.children[0]?.name).toMatch(
      /^chat /,
    );
    const scores = await bodyOf(
      await viewer("GET", `/v1/scores?subjectType=run_result&subjectId=${resultId}`),
    );
    expect(scores.totalElements).toBe(2);
    expect(
      await bodyOf(await viewer("GET", `/v1/experiments/${id}/runs?variantId=${bad.id}&status=completed`)),
    ).toMatchObject({ totalElements: 1 });

    const noBaseline = await viewer("GET", `/v1/experiments/${id}/runs/${runs[1]?.id}/regression`);
    expect(noBaseline.status).toBe(409);
    expect((await bodyOf(noBaseline)).error.code).toBe("no_baseline");
    const baseline = await member("PUT", `/v1/experiments/${id}/baseline`, { runId: runs[0]?.id });
    expect(baseline.status).toBe(200);
    expect((await bodyOf(baseline)).baselineRunId).toBe(runs[0]?.id);
    const regression = await bodyOf(
      await viewer("GET", `/v1/experiments/${id}/runs/${runs[1]?.id}/regression?threshold=0.1`),
    );
    expect(regression).toMatchObject({
      runId: runs[1]?.id,
      baselineRunId: runs[0]?.id,
      threshold: 0.1,
      summary: {
        improved: 0,
        regressed: 4,
        unchanged: 4,
        missing: 0,
        byEvaluator: { exact_match: { regressed: 2, unchanged: 2 } },
      },
    });
    expect(regression.items).toHaveLength(8);
    expect((regression.items as unknown[])[2]).toEqual({
      datasetItemId: expect.stringMatching(/^dsi_/),
      evaluator: "exact_match",
      baseline: 1,
      candidate: 0,
      delta: -1,
      verdict: "regressed",
    });
    const comparison = await bodyOf(await viewer("GET", `/v1/experiments/${id}/comparison`));
    expect(comparison).toMatchObject({
      baselineRunId: runs[0]?.id,
      runs: [
        { runId: runs[0]?.id, variantName: "good", improvements: 0, regressions: 0 },
        {
          runId: runs[1]?.id,
          variantName: "bad",
          means: { exact_match: 0.5, "has-a": 0.5 },
          deltaVsBaseline: { exact_match: -0.5, "has-a": -0.5 },
          regressions: 4,
        },
      ],
    });
    const terminal = await member("POST", `/v1/experiments/${id}/runs/${runs[0]?.id}/cancel`);
    expect(terminal.status).toBe(409);
    expect((await member("DELETE", `/v1/experiments/${id}/baseline`)).status).toBe(204);
    expect((await bodyOf(await viewer("GET", `/v1/experiments/${id}`))).baselineRunId).toBeNull();
  });

  it("cancels a queued run (200) and keeps it cancelled; PATCH changes fields; kind is immutable", async () => {
    const { id } = await experiment(2);
    const variant = await created(
      await member("POST", `/v1/experiments/${id}/variants`, { name: "v", kind: "model", model: "good-1" }),
    );
    const { runs } = await created(
      await member("POST", `/v1/experiments/${id}/runs`, { variantIds: [variant.id] }),
      202,
    );
    const runId = (runs as Array<{ id: string }>)[0]?.id;
    const cancelled = await member("POST", `/v1/experiments/${id}/runs/${runId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(await bodyOf(cancelled)).toMatchObject({ status: "cancelled", completedAt: ISO });
    await groundwork.experimentRuns.drain();
    expect((await bodyOf(await viewer("GET", `/v1/experiments/${id}/runs/${runId}`))).status).toBe(
      "cancelled",
    );

    const patched = await member("PATCH", `/v1/experiments/${id}/variants/${variant.id}`, {
      name: "renamed",
      params: { temperature: 0.5 },
    });
    expect(await bodyOf(patched)).toMatchObject({
      name: "renamed",
      model: "good-1",
      params: { temperature: 0.5 },
    });
    const kind = await member("PATCH", `/v1/experiments/${id}/variants/${variant.id}`, { kind: "prompt" });
    expect(kind.status).toBe(400);
    expect((await bodyOf(kind)).error.param).toBe("kind");
    const renamed = await member("PATCH", `/v1/experiments/${id}`, {
      description: "d",
      datasetVersionId: null,
    });
    expect(await bodyOf(renamed)).toMatchObject({ description: "d", datasetVersionId: null });
  });

  it("answers 400 naming the field for bad bodies and queries", async () => {
    const { id, datasetId } = await experiment(2);
    await created(
      await member("POST", `/v1/experiments/${id}/variants`, { name: "v", kind: "model", model: "good-1" }),
    );
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", "/v1/experiments", { datasetId, evaluators: [{ type: "exact_match" }] }, "name"],
      ["POST", "/v1/experiments", { name: "x", datasetId, evaluators: [] }, "evaluators"],
      [
        "POST",
        "/v1/experiments",
        { name: "x", datasetId, evaluators: [{ type: "nope" }] },
        "evaluators[0].type",
      ],
      [
        "POST",
        "/v1/experiments",
        { name: "x", datasetId, evaluators: [{ type: "regex", params: { pattern: "(" } }] },
        "evaluators[0].params.pattern",
      ],
      [
        "POST",
        "/v1/experiments",
        { name: "x", datasetId, evaluators: [{ name: "a b", type: "regex" }] },
        "evaluators[0].name",
      ],
      ["PATCH", `/v1/experiments/${id}`, { name: "" }, "name"],
      ["POST", `/v1/experiments/${id}/variants`, { name: "w", kind: "llm" }, "kind"],
      ["POST", `/v1/experiments/${id}/variants`, { name: "w", kind: "model" }, "model"],
      [
        "POST",
        `/v1/experiments/${id}/variants`,
        { name: "w", kind: "model", model: "m", params: { temperature: 3 } },
        "params.temperature",
      ],
      ["POST", `/v1/experiments/${id}/variants`, { name: "w", kind: "agent", agent: "writer" }, "agent"],
      ["POST", `/v1/experiments/${id}/runs`, { variantIds: "all" }, "variantIds"],
      ["PUT", `/v1/experiments/${id}/baseline`, {}, "runId"],
    ];
    for (const [method, path, body, param] of cases) {
      const response = await member(method, path, body);
      expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect((await bodyOf(response)).error).toMatchObject({ type: "invalid_request_error", param });
    }
    const { runs } = await created(await member("POST", `/v1/experiments/${id}/runs`), 202);
    const runId = (runs as Array<{ id: string }>)[0]?.id;
    await groundwork.experimentRuns.drain();
    const queries: Array<[string, string]> = [
      [`/v1/experiments/${id}/runs/${runId}/regression?baselineRunId=${runId}&threshold=2`, "threshold"],
      [`/v1/experiments/${id}/comparison?runIds=${runId}`, "runIds"],
      [`/v1/experiments/${id}/runs?status=done`, "status"],
      [`/v1/experiments/${id}/runs/${runId}/results?status=ok`, "status"],
      [`/v1/experiments?size=0`, "size"],
    ];
    for (const [path, param] of queries) {
      const response = await viewer("GET", path);
      expect(response.status, path).toBe(400);
      expect((await bodyOf(response)).error.param).toBe(param);
    }
    const missing = await member("POST", "/v1/experiments", {
      name: "x",
      datasetId: "ds_missing",
      evaluators: [{ type: "exact_match" }],
    });
    expect(missing.status).toBe(404);
    const prompt = await member("POST", `/v1/experiments/${id}/variants`, {
      name: "p",
      kind: "prompt",
      promptId: "nope",
    });
    expect(prompt.status).toBe(404);
    expect((await bodyOf(prompt)).error.param).toBe("promptId");
    const taken = await member("POST", `/v1/experiments/${id}/variants`, {
      name: "v",
      kind: "model",
      model: "good-1",
    });
    expect(taken.status).toBe(409);
  });

  it("never answers 5xx to fuzzed bodies", async () => {
    const { id } = await experiment(1);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          ["POST", "/v1/experiments"],
          ["PATCH", `/v1/experiments/${id}`],
          ["POST", `/v1/experiments/${id}/variants`],
          ["POST", `/v1/experiments/${id}/runs`],
          ["PUT", `/v1/experiments/${id}/baseline`],
        ),
        fc.oneof(
          fc.jsonValue(),
          fc.string(),
          fc.record({
            name: fc.oneof(fc.string(), fc.integer()),
            kind: fc.constantFrom("prompt", "agent", "model", "extraction", "x"),
            evaluators: fc.array(fc.record({ type: fc.string(), params: fc.jsonValue() })),
            model: fc.string(),
            variantIds: fc.array(fc.string()),
          }),
        ),
        async ([method, path], body) => {
          const response = await member(
            method as string,
            path as string,
            typeof body === "string" ? body : JSON.stringify(body),
          );
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("applies the roles of §1.3", async () => {
    const { id, datasetId } = await experiment(1);
    const body = { name: "r", datasetId, evaluators: [{ type: "exact_match" }] };
    expect((await viewer("GET", `/v1/experiments/${id}`)).status).toBe(200);
    expect((await call(tenant.keys.viewer, "POST", "/v1/experiments", body)).status).toBe(403);
    expect((await call(tenant.keys.viewer, "POST", `/v1/experiments/${id}/runs`)).status).toBe(403);
    expect((await call(tenant.keys.viewer, "DELETE", `/v1/experiments/${id}/baseline`)).status).toBe(403);
    const variant = await created(
      await member("POST", `/v1/experiments/${id}/variants`, { name: "v", kind: "model", model: "good-1" }),
    );
    expect((await member("DELETE", `/v1/experiments/${id}/variants/${variant.id}`)).status).toBe(403);
    expect((await member("DELETE", `/v1/experiments/${id}`)).status).toBe(403);
    expect(
      (await call(tenant.keys.admin, "DELETE", `/v1/experiments/${id}/variants/${variant.id}`)).status,
    ).toBe(204);
    expect((await call(tenant.keys.admin, "DELETE", `/v1/experiments/${id}`)).status).toBe(204);
    expect((await viewer("GET", `/v1/experiments/${id}`)).status).toBe(404);
  });

  it("answers 404 for another organization's experiment, runs and results", async () => {
    const { id } = await experiment(1);
    await created(
      await member("POST", `/v1/experiments/${id}/variants`, { name: "v", kind: "model", model: "good-1" }),
    );
    const { runs } = await created(await member("POST", `/v1/experiments/${id}/runs`), 202);
    const runId = (runs as Array<{ id: string }>)[0]?.id;
    await groundwork.experimentRuns.drain();
    const paths: Array<[string, string, unknown?]> = [
      ["GET", `/v1/experiments/${id}`],
      ["PATCH", `/v1/experiments/${id}`, { description: "x" }],
      ["GET", `/v1/experiments/${id}/variants`],
      ["POST", `/v1/experiments/${id}/variants`, { name: "w", kind: "model", model: "good-1" }],
      ["POST", `/v1/experiments/${id}/runs`],
      ["GET", `/v1/experiments/${id}/runs`],
      ["GET", `/v1/experiments/${id}/runs/${runId}`],
      ["POST", `/v1/experiments/${id}/runs/${runId}/cancel`],
      ["GET", `/v1/experiments/${id}/runs/${runId}/results`],
      ["GET", `/v1/experiments/${id}/runs/${runId}/regression?baselineRunId=${runId}`],
      ["PUT", `/v1/experiments/${id}/baseline`, { runId }],
      ["DELETE", `/v1/experiments/${id}/baseline`],
      ["GET", `/v1/experiments/${id}/comparison`],
    ];
    for (const [method, path, body] of paths) {
      const response = await call(stranger, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await bodyOf(await call(stranger, "GET", "/v1/experiments"))).totalElements).toBe(0);
  });
});
