/**
 * The evaluator service as a library user meets it: templates with their version counter, the
 * type table, and `evaluate` with built-in types and with the judge on a scripted upstream
 * reached through the metered gateway.
 */
import { type GroundworkError, isGroundworkError, type Principal } from "@groundwork/core";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";

let upstream: Upstream;
let store: PlatformStore;
let groundwork: Groundwork;
let principal: Principal;
beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-judge"] });
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.reset();
  store = await openTestStore();
  groundwork = createGroundwork({ store, config: { builtin: { baseUrl: upstream.url, apiKey: "k" } } });
  principal = await groundwork.principal("acme");
});
afterEach(async () => {
  await groundwork.close();
  await store.close();
});

async function errorOf(run: () => unknown): Promise<GroundworkError> {
  try {
    await run();
  } catch (error) {
    if (isGroundworkError(error)) return error;
    throw error;
  }
  throw new Error("expected an error");
}

async function rejection(run: () => Promise<unknown>): Promise<GroundworkError> {
  try {
    await run();
  } catch (error) {
    if (isGroundworkError(error)) return error;
    throw error;
  }
  throw new Error("expected an error");
}

const template = {
  name: "correctness",
  prompt: "Question: {{input}}\nAnswer: {{output}}\nReference: {{expectedOutput}}",
  model: "gw-judge",
  scale: { type: "numeric" as const, min: 0, max: 10 },
};

describe("evaluator templates", () => {
  it("creates with version 1, increments on every update, lists newest first", async () => {
    const evaluators = groundwork.evaluators;
    const org = principal.organizationId;
    const created = await evaluators.createTemplate(org, { ...template, description: "is it right?" });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      version: 1,
      description: "is it right?",
    });
    const renamed = await evaluators.updateTemplate(org, created.id, { name: "correct" });
    expect(renamed).toMatchObject({ name: "correct", version: 2, prompt: template.prompt });
    expect(await evaluators.updateTemplate(org, created.id, { scale: { type: "boolean" } })).toMatchObject({
      version: 3,
      scale: { type: "boolean" },
    });
    expect((await evaluators.updateTemplate(org, created.id, { description: null })).description).toBeNull();
    const other = await evaluators.createTemplate(org, { ...template, name: "tone" });
    expect((await evaluators.listTemplates(org, { page: 0, size: 10 })).items.map((t) => t.id)).toEqual([
      other.id,
      created.id,
    ]);
  });

  it("refuses a taken name (409), bad fields (400 naming them) and other organizations' ids (404)", async () => {
    const evaluators = groundwork.evaluators;
    const org = principal.organizationId;
    const created = await evaluators.createTemplate(org, template);
    expect(await errorOf(async () => await evaluators.createTemplate(org, template))).toMatchObject({
      status: 409,
      param: "name",
    });
    const other = await evaluators.createTemplate(org, { ...template, name: "other" });
    expect(
      await errorOf(async () => await evaluators.updateTemplate(org, other.id, { name: "correctness" })),
    ).toMatchObject({
      status: 409,
    });
    // Renaming a template to its own name is no conflict.
    expect((await evaluators.updateTemplate(org, created.id, { name: "correctness" })).version).toBe(2);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ ...template, name: "" }, "name"],
      [{ ...template, name: "x".repeat(201) }, "name"],
      [{ ...template, prompt: "" }, "prompt"],
      [{ ...template, prompt: "x".repeat(20_001) }, "prompt"],
      [{ ...template, prompt: "Rate {{answer}}" }, "prompt"],
      [{ ...template, model: undefined }, "model"],
      [{ ...template, model: "nope/x" }, "model"],
      [{ ...template, scale: undefined }, "scale"],
      [{ ...template, scale: { type: "numeric", min: 5, max: 5 } }, "scale.max"],
      [
        { ...template, scale: { type: "categorical", categories: [{ label: "a", value: 1 }] } },
        "scale.categories",
      ],
      [
        {
          ...template,
          scale: {
            type: "categorical",
            categories: [
              { label: "a", value: 1 },
              { label: "b", value: 2 },
            ],
          },
        },
        "scale.categories[1].value",
      ],
    ];
    for (const [body, param] of bad) {
      const named = param === "name" ? body : { ...body, name: `n-${param}` };
      expect(await errorOf(async () => await evaluators.createTemplate(org, named as never))).toMatchObject({
        status: 400,
        param,
      });
    }
    expect(await errorOf(async () => await evaluators.updateTemplate(org, created.id, {}))).toMatchObject({
      status: 400,
    });
    const stranger = await groundwork.principal("globex");
    expect(
      await errorOf(async () => await evaluators.getTemplate(stranger.organizationId, created.id)),
    ).toMatchObject({
      status: 404,
    });
    expect(
      await errorOf(async () => await evaluators.deleteTemplate(stranger.organizationId, created.id)),
    ).toMatchObject({
      status: 404,
    });
  });

  it("refuses to delete a template an experiment uses (409 template_in_use) through the in-use hook", async () => {
    const evaluators = groundwork.evaluators;
    const org = principal.organizationId;
    const created = await evaluators.createTemplate(org, template);
    evaluators.setTemplateInUseCheck(
      (organizationId, templateId) => organizationId === org && templateId === created.id,
    );
    expect(await errorOf(async () => await evaluators.deleteTemplate(org, created.id))).toMatchObject({
      status: 409,
      code: "template_in_use",
    });
    evaluators.setTemplateInUseCheck(() => false);
    await evaluators.deleteTemplate(org, created.id);
    expect(await errorOf(async () => await evaluators.getTemplate(org, created.id))).toMatchObject({
      status: 404,
    });
  });
});

describe("evaluate", () => {
  it("scores cases with a built-in type, skipping those without an expected output", async () => {
    const run = await groundwork.evaluators.evaluate(principal, { type: "exact_match" }, [
      { output: "Paris", expectedOutput: "Paris" },
      { output: "Lyon", expectedOutput: "Paris" },
      { output: "Paris" },
    ]);
    expect(run).toMatchObject({ type: "exact_match", templateId: null, templateVersion: null });
    expect(run.results).toEqual([
      { score: 1, passed: true, comment: null },
      { score: 0, passed: false, comment: 'expected "Paris"' },
      { skipped: true, reason: "no expected output" },
    ]);
  });

  it("refuses bad types and params before scoring anything", async () => {
    const evaluators = groundwork.evaluators;
    expect(
      await rejection(async () => await evaluators.evaluate(principal, { type: "bleu" }, [])),
    ).toMatchObject({
      status: 400,
      param: "type",
    });
    expect(
      await rejection(async () => await evaluators.evaluate(principal, { type: "regex", params: {} }, [])),
    ).toMatchObject({
      status: 400,
      param: "params.pattern",
    });
    expect(
      await errorOf(
        async () =>
          await evaluators.prepare(
            principal.organizationId,
            { type: "regex", params: {} },
            "evaluators[1].params",
          ),
      ),
    ).toMatchObject({ param: "evaluators[1].params.pattern" });
    expect(
      await errorOf(
        async () =>
          await evaluators.prepare(principal.organizationId, { type: "nope" }, "evaluators[1].params"),
      ),
    ).toMatchObject({ param: "evaluators[1].type" });
    expect(
      await rejection(
        async () =>
          await evaluators.evaluate(principal, { type: "llm_judge", params: { templateId: "evt_x" } }, []),
      ),
    ).toMatchObject({ status: 404, param: "params.templateId" });
  });

  it("resolves json_schema_valid's schemaVersionId in the organization", async () => {
    const org = principal.organizationId;
    const schema = await groundwork.schemas.create(org, { name: "invoice" });
    const version = await groundwork.schemas.commitVersion(org, schema.id, {
      jsonSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] },
    });
    const run = await groundwork.evaluators.evaluate(
      principal,
      { type: "json_schema_valid", params: { schemaVersionId: version.id } },
      [{ output: '{"total": 1}' }, { output: "{}" }, { output: "oops" }],
    );
    expect(run.results.map((r) => ("score" in r ? r.score : null))).toEqual([1, 0, 0]);
    const stranger = await groundwork.principal("globex");
    expect(
      await rejection(
        async () =>
          await groundwork.evaluators.evaluate(
            stranger,
            { type: "json_schema_valid", params: { schemaVersionId: version.id } },
            [],
          ),
      ),
    ).toMatchObject({ status: 404, param: "params.schemaVersionId" });
  });

  it("judges through the gateway with the template's model and scale, recording the template version", async () => {
    const org = principal.organizationId;
    const created = await groundwork.evaluators.createTemplate(org, template);
    await groundwork.evaluators.updateTemplate(org, created.id, { description: "v2" });
    upstream.enqueue(
      { text: JSON.stringify({ score: 8, reason: "mostly right" }) },
      { text: "I think it is fine" },
    );
    const run = await groundwork.evaluators.evaluate(
      principal,
      { type: "llm_judge", params: { templateId: created.id } },
      [
        { input: { question: "capital of France?" }, output: "Paris", expectedOutput: "Paris" },
        { input: "2+2", output: "5", expectedOutput: "4" },
        { input: "no reference", output: "x" },
      ],
    );
    expect(run).toMatchObject({ type: "llm_judge", templateId: created.id, templateVersion: 2 });
    expect(run.results[0]).toMatchObject({ score: 0.8, passed: true, comment: "mostly right" });
    expect(run.results[1]).toMatchObject({ error: "judge answer is not JSON" });
    expect(run.results[1]).not.toHaveProperty("score");
    expect(run.results[2]).toEqual({ skipped: true, reason: "no expected output" });
    expect(upstream.requests).toHaveLength(2);
    const bodies = upstream.requests.map((request) => request.body as Record<string, unknown>);
    expect(bodies[0]).toMatchObject({ model: "gw-judge", response_format: { type: "json_schema" } });
    expect(JSON.stringify(bodies)).toContain('Question: {\\"question\\":\\"capital of France?\\"}');
    // Metered like any chat completion of the organization.
    await store.usage.flush();
    expect((await store.usage.list(org)).length).toBe(2);
  });

  it("records a failed judge call as an error of that case", async () => {
    const created = await groundwork.evaluators.createTemplate(principal.organizationId, {
      ...template,
      prompt: "Is {{output}} polite?",
      scale: { type: "boolean" },
    });
    upstream.enqueue(
      { kind: "error", status: 400, message: "bad request" },
      { text: '{"verdict": true, "reason": "yes"}' },
    );
    const run = await groundwork.evaluators.evaluate(
      principal,
      { type: "llm_judge", params: { templateId: created.id, passThreshold: 1 } },
      [{ output: "rude" }, { output: "please" }],
    );
    expect(run.results[0]).toMatchObject({ error: expect.stringContaining("judge call failed") });
    expect(run.results[1]).toMatchObject({ score: 1, passed: true, comment: "yes" });
  });

  it("lists the types of §9", () => {
    expect(groundwork.evaluators.types().map((t) => t.type)).toContain("field_accuracy");
  });
});
