/** `/v1/evaluators/*` (PLATFORM.md §9): each endpoint's success, validation, roles, isolation and fuzzed bodies. */

import { createGroundwork } from "@groundwork/platform";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { bearer, bodyOf, createTestTenant, type TestTenant } from "../../../test/test-support.js";
import { type App, createApp } from "../../app.js";

let tenant: TestTenant;
let app: App;
/** A Member key of another organization. */
let stranger: string;

beforeEach(async () => {
  tenant = await createTestTenant();
  app = createApp({ store: tenant.store });
  stranger = await tenant.keyFor("admin", "enterprise");
});

const json = (key: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });

const template = {
  name: "helpfulness",
  description: "Is the answer helpful?",
  prompt: "Question: {{input}}\nAnswer: {{output}}",
  model: "gpt-4o-mini",
  scale: { type: "numeric", min: 1, max: 5 },
};

async function create(body: unknown = template, key = tenant.keys.member) {
  const response = await json(key, "POST", "/v1/evaluators/templates", body);
  return { status: response.status, body: await bodyOf(response) };
}

describe("GET /v1/evaluators/types", () => {
  it("lists every type with its params schema, for any role", async () => {
    for (const role of ["viewer", "member", "admin"] as const) {
      const response = await json(tenant.keys[role], "GET", "/v1/evaluators/types");
      expect(response.status).toBe(200);
      const types = (await response.json()) as Array<Record<string, unknown>>;
      expect(types.map((t) => t.type)).toEqual([
        "exact_match",
        "contains",
        "regex",
        "json_schema_valid",
        "numeric_tolerance",
        "levenshtein",
        "field_accuracy",
        "grounding",
        "llm_judge",
      ]);
      expect(types[0]).toEqual({
        type: "exact_match",
        description: expect.any(String),
        needsExpectedOutput: true,
        paramsSchema: expect.objectContaining({ type: "object" }),
      });
    }
  });

  it("needs a key", async () => {
    expect((await app.request("/v1/evaluators/types")).status).toBe(401);
  });
});

describe("POST /v1/evaluators/templates", () => {
  it("creates a template with version 1 (Member)", async () => {
    const { status, body } = await create();
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.stringMatching(/^evt_[0-9A-Za-z]{26}$/),
      ...template,
      version: 1,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    const bare = await create({
      ...template,
      name: "bare",
      description: undefined,
      scale: { type: "boolean" },
    });
    expect(bare.body).toMatchObject({ description: null, scale: { type: "boolean" } });
  });

  it("answers 409 for a taken name and 400 naming the field for bad ones", async () => {
    await create();
    expect(await create()).toMatchObject({
      status: 409,
      body: { error: { param: "name", code: "conflict" } },
    });
    const cases: Array<[unknown, string | null]> = [
      [{ ...template, name: "" }, "name"],
      [{ ...template, name: 5 }, "name"],
      [{ ...template, prompt: "x".repeat(20_001) }, "prompt"],
      [{ ...template, prompt: "{{answer}}" }, "prompt"],
      [{ ...template, model: "" }, "model"],
      [{ ...template, model: "bogus/x" }, "model"],
      [{ ...template, scale: { type: "numeric", min: 3, max: 1 } }, "scale.max"],
      [{ ...template, scale: { type: "stars" } }, "scale.type"],
      [
        {
          ...template,
          scale: {
            type: "categorical",
            categories: Array.from({ length: 21 }, (_, i) => ({ label: `l${i}`, value: 0 })),
          },
        },
        "scale.categories",
      ],
      [{ ...template, description: "x".repeat(10_001) }, "description"],
      ["[]", null],
    ];
    for (const [body, param] of cases) {
      const result = await create(body);
      expect(result.status, JSON.stringify(param)).toBe(400);
      expect(result.body.error).toMatchObject({ type: "invalid_request_error", param });
    }
    expect((await json(tenant.keys.member, "POST", "/v1/evaluators/templates", "{oops")).status).toBe(400);
  });

  it("is refused to Viewers (403)", async () => {
    expect((await create(template, tenant.keys.viewer)).status).toBe(403);
  });

  it("never answers 5xx to malformed bodies (fuzzed)", async () => {
    const field = fc.oneof(fc.jsonValue(), fc.constant(undefined));
    const bodies = fc.oneof(
      fc.string(),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc
        .record({ name: field, prompt: field, model: field, scale: field, description: field })
        .map((b) => JSON.stringify(b)),
      fc
        .record({
          type: fc.constantFrom("numeric", "boolean", "categorical"),
          min: field,
          max: field,
          categories: field,
        })
        .map((scale) => JSON.stringify({ ...template, name: "fuzz", scale })),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const response = await json(tenant.keys.member, "POST", "/v1/evaluators/templates", body);
        expect(response.status).toBeLessThan(500);
        if (response.status === 201) {
          const id = (await bodyOf(response)).id as string;
          await json(tenant.keys.admin, "DELETE", `/v1/evaluators/templates/${id}`);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("GET /v1/evaluators/templates", () => {
  it("pages templates newest first (Viewer)", async () => {
    for (const name of ["a", "b", "c"]) await create({ ...template, name });
    const response = await json(tenant.keys.viewer, "GET", "/v1/evaluators/templates?size=2");
    expect(response.status).toBe(200);
    const page = await bodyOf(response);
    expect(page).toMatchObject({ page: 0, size: 2, totalElements: 3, totalPages: 2 });
    expect((page.content as Array<{ name: string }>).map((t) => t.name)).toEqual(["c", "b"]);
    const bad = await bodyOf(await json(tenant.keys.viewer, "GET", "/v1/evaluators/templates?size=0"));
    expect(bad.error).toMatchObject({ param: "size" });
    const other = await bodyOf(await json(stranger, "GET", "/v1/evaluators/templates"));
    expect(other.totalElements).toBe(0);
  });
});

describe("GET, PATCH, DELETE /v1/evaluators/templates/{templateId}", () => {
  it("reads a template (Viewer); another organization's id is 404", async () => {
    const { body } = await create();
    const path = `/v1/evaluators/templates/${body.id}`;
    expect(await bodyOf(await json(tenant.keys.viewer, "GET", path))).toEqual(body);
    const foreign = await json(stranger, "GET", path);
    expect(foreign.status).toBe(404);
    expect((await bodyOf(foreign)).error.code).toBe("not_found");
    expect((await json(tenant.keys.viewer, "GET", "/v1/evaluators/templates/evt_missing")).status).toBe(404);
  });

  it("updates any create field and increments the version each time (Member)", async () => {
    const { body } = await create();
    const path = `/v1/evaluators/templates/${body.id}`;
    const first = await json(tenant.keys.member, "PATCH", path, {
      prompt: "Rate {{output}} against {{expectedOutput}}",
    });
    expect(first.status).toBe(200);
    expect(await bodyOf(first)).toMatchObject({
      version: 2,
      name: "helpfulness",
      prompt: expect.stringContaining("Rate"),
    });
    const second = await bodyOf(
      await json(tenant.keys.member, "PATCH", path, {
        name: "judge",
        model: "gpt-4o",
        scale: {
          type: "categorical",
          categories: [
            { label: "good", value: 1 },
            { label: "bad", value: 0 },
          ],
        },
        description: null,
      }),
    );
    expect(second).toMatchObject({ version: 3, name: "judge", model: "gpt-4o", description: null });
  });

  it("validates PATCH bodies (400), refuses taken names (409), Viewers (403) and strangers (404)", async () => {
    const { body } = await create();
    await create({ ...template, name: "other" });
    const path = `/v1/evaluators/templates/${body.id}`;
    expect((await bodyOf(await json(tenant.keys.member, "PATCH", path, {}))).error).toMatchObject({
      type: "invalid_request_error",
    });
    expect(
      (await bodyOf(await json(tenant.keys.member, "PATCH", path, { scale: { type: "numeric" } }))).error,
    ).toMatchObject({
      param: "scale.min",
    });
    expect((await json(tenant.keys.member, "PATCH", path, { name: "other" })).status).toBe(409);
    expect((await json(tenant.keys.viewer, "PATCH", path, { name: "x" })).status).toBe(403);
    expect((await json(stranger, "PATCH", path, { name: "x" })).status).toBe(404);
    expect((await json(stranger, "PATCH", path, "{oops")).status).toBe(404);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.json(), fc.string()), async (raw) => {
        expect((await json(tenant.keys.member, "PATCH", path, raw)).status).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });

  it("deletes for Admins only (204), then 404; strangers get 404", async () => {
    const { body } = await create();
    const path = `/v1/evaluators/templates/${body.id}`;
    expect((await json(tenant.keys.member, "DELETE", path)).status).toBe(403);
    expect((await json(stranger, "DELETE", path)).status).toBe(404);
    const deleted = await json(tenant.keys.admin, "DELETE", path);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await json(tenant.keys.admin, "DELETE", path)).status).toBe(404);
    expect((await json(tenant.keys.viewer, "GET", path)).status).toBe(404);
  });

  it("answers 409 template_in_use while an experiment uses the template", async () => {
    const groundwork = createGroundwork({ store: tenant.store });
    app = createApp({ groundwork });
    const { body } = await create();
    groundwork.evaluators.setTemplateInUseCheck((_, id) => id === body.id);
    const refused = await json(tenant.keys.admin, "DELETE", `/v1/evaluators/templates/${body.id}`);
    expect(refused.status).toBe(409);
    expect((await bodyOf(refused)).error).toMatchObject({ code: "template_in_use", param: "templateId" });
  });
});

describe("POST /v1/evaluators/evaluate", () => {
  async function datasetWithItems(key = tenant.keys.member) {
    const dataset = await bodyOf(await json(key, "POST", "/v1/datasets", { name: "invoices" }));
    const added = await bodyOf(
      await json(key, "POST", `/v1/datasets/${dataset.id}/items/batch`, {
        items: [{ input: "INV-1 total 10", expectedOutput: { number: "INV-1", total: 10 } }],
      }),
    );
    return {
      datasetId: dataset.id as string,
      itemId: (added.items as Array<{ id: string }>)[0]?.id as string,
    };
  }

  it("scores outputs for dataset items and records EVAL scores on them (Member)", async () => {
    const { datasetId, itemId } = await datasetWithItems();
    const response = await json(tenant.keys.member, "POST", "/v1/evaluators/evaluate", {
      evaluator: { type: "field_accuracy" },
      datasetId,
      outputs: [{ itemId, output: { number: "INV-1", total: 11 } }],
    });
    expect(response.status).toBe(200);
    const report = await bodyOf(response);
    expect(report).toMatchObject({
      datasetId,
      scoreName: "field_accuracy",
      results: [{ itemId, score: 0.5, scoreId: expect.stringMatching(/^scr_/) }],
      summary: { cases: 1, scored: 1, meanScore: 0.5 },
    });
    const scores = await bodyOf(
      await json(tenant.keys.viewer, "GET", `/v1/scores?subjectId=${itemId}&source=EVAL`),
    );
    expect(scores).toMatchObject({
      totalElements: 1,
      content: [{ subjectType: "dataset_item", value: 0.5 }],
    });
  });

  it("is Member-only, 404 for another organization's dataset, 400 with param for bad bodies", async () => {
    const { datasetId, itemId } = await datasetWithItems();
    const body = { evaluator: { type: "exact_match" }, datasetId, outputs: [{ itemId, output: "x" }] };
    expect((await json(tenant.keys.viewer, "POST", "/v1/evaluators/evaluate", body)).status).toBe(403);
    expect((await json(stranger, "POST", "/v1/evaluators/evaluate", body)).status).toBe(404);
    const bad = await json(tenant.keys.member, "POST", "/v1/evaluators/evaluate", {
      evaluator: { type: "regex", params: {} },
      cases: [{ output: "x" }],
    });
    expect(bad.status).toBe(400);
    expect((await bodyOf(bad)).error).toMatchObject({ param: "evaluator.params.pattern" });
  });

  it("never answers 5xx to malformed bodies", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.string()), async (body) => {
        const response = await json(tenant.keys.member, "POST", "/v1/evaluators/evaluate", body as never);
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });
});
