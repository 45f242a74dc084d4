/**
 * The variant kinds beyond model and prompt, end to end through the library against a scripted
 * upstream: an `extraction` variant (schema version + strategy) scored field by field and for
 * grounding, and an `agent` variant — one that answers, and one whose relayed tool call pauses
 * the run, which fails the item `agent_paused` (PLATFORM.md §11).
 */
import type { Principal } from "@groundwork/core";
import { createFastFetch } from "@groundwork/gateway";
import { type JsonValue, type Reply, startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";

const DOCUMENTS = [
  {
    text: "Invoice INV-1 from Acme GmbH, total due 120.50 EUR.",
    invoiceNumber: "INV-1",
    vendor: "Acme GmbH",
  },
  { text: "Invoice INV-2 from Birch Ltd, total due 80.00 EUR.", invoiceNumber: "INV-2", vendor: "Birch Ltd" },
];

function userText(body: JsonValue | undefined): string {
  const messages =
    (body as { messages?: Array<{ role: string; content: unknown }> } | undefined)?.messages ?? [];
  return messages
    .filter((message) => message.role === "user")
    .map((message) =>
      typeof message.content === "string" ? message.content : JSON.stringify(message.content),
    )
    .join("\n");
}

/** `good-*` extracts both fields right; `bad-*` gets the vendor wrong (a value not in the text). */
function handler(request: { body: JsonValue | undefined }): Reply {
  const model = String((request.body as { model?: unknown } | undefined)?.model ?? "");
  const text = userText(request.body);
  if (model === "agent-model") {
    if (text.includes("use the tool")) return { toolCalls: [{ name: "lookup", arguments: "{}" }] };
    return { text: "Acme GmbH", usage: { inputTokens: 7, outputTokens: 3 } };
  }
  const document = DOCUMENTS.find((candidate) => text.includes(candidate.invoiceNumber));
  const vendor = model.startsWith("good") ? document?.vendor : "Nobody Inc";
  return {
    text: JSON.stringify({ invoiceNumber: document?.invoiceNumber ?? "?", vendor }),
    usage: { inputTokens: 20, outputTokens: 8 },
  };
}

let upstream: Upstream;
let store: PlatformStore;
let groundwork: Groundwork;
let principal: Principal;
const page = { page: 0, size: 100 };

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ handler });
});
afterAll(() => upstream.close());
beforeEach(async () => {
  upstream.reset();
  store = await openTestStore();
  groundwork = createGroundwork({
    store,
    config: { builtin: { baseUrl: upstream.url, apiKey: "k" } },
    fetch: createFastFetch(),
  });
  principal = await groundwork.principal("acme", "member");
});
afterEach(async () => {
  await groundwork.close();
  await store.close();
});

describe("extraction variants", () => {
  it("compare two models on a schema version field by field and for grounding", async () => {
    const schema = await groundwork.schemas.create(principal.organizationId, { name: "Invoice" });
    await store.schemas.commitVersion(schema.id, {
      jsonSchema: {
        type: "object",
        properties: { invoiceNumber: { type: "string" }, vendor: { type: "string" } },
        required: ["invoiceNumber", "vendor"],
      },
    });
    const dataset = await groundwork.datasets.create(principal, { name: "invoices" });
    await groundwork.datasets.addItems(principal, dataset.id, {
      items: DOCUMENTS.map(({ text, invoiceNumber, vendor }) => ({
        input: text,
        expectedOutput: { invoiceNumber, vendor },
      })),
    });
    await groundwork.datasets.createVersion(principal, dataset.id);
    const experiment = await groundwork.experiments.create(principal, {
      name: "invoice-models",
      datasetId: dataset.id,
      evaluators: [{ type: "field_accuracy" }, { type: "grounding" }],
    });
    for (const model of ["good-1", "bad-1"]) {
      await groundwork.experiments.addVariant(principal, experiment.id, {
        name: model,
        kind: "extraction",
        schemaId: schema.id,
        strategy: "SINGLE_SHOT",
        model,
      });
    }
    const [good, bad] = await groundwork.experiments.startRuns(principal, experiment.id);
    await groundwork.experimentRuns.drain();

    const goodRun = await groundwork.experiments.getRun(principal, experiment.id, good?.id ?? "");
    expect(goodRun).toMatchObject({ status: "completed", total: 2, completed: 2, failed: 0 });
    expect(goodRun.scores.field_accuracy).toMatchObject({ mean: 1, count: 2 });
    expect(goodRun.scores.grounding).toMatchObject({ mean: 1, count: 2 });
    const badRun = await groundwork.experiments.getRun(principal, experiment.id, bad?.id ?? "");
    expect(badRun.scores.field_accuracy?.mean).toBeCloseTo(0.5);
    // The wrong vendor is nowhere in the document: half of each output's leaves are grounded.
    expect(badRun.scores.grounding?.mean).toBeCloseTo(0.5);

    const results = await groundwork.experiments.listResults(
      principal,
      experiment.id,
      good?.id ?? "",
      {},
      page,
    );
    expect(JSON.parse(results.items[0]?.output ?? "null")).toEqual({
      invoiceNumber: "INV-1",
      vendor: "Acme GmbH",
    });

    await groundwork.experiments.setBaseline(principal, experiment.id, { runId: good?.id });
    const regression = await groundwork.experiments.regression(principal, experiment.id, bad?.id ?? "", {});
    expect(regression.summary.total).toMatchObject({ regressed: 4, improved: 0 });
  });
});

describe("agent variants", () => {
  it("run the agent on each item; a paused run fails its item agent_paused", async () => {
    await groundwork.agentManagement.apply(await groundwork.principal("acme"), {
      name: "vendor-finder",
      model: "agent-model",
      instructions: "Name the vendor.",
      tools: [{ name: "lookup", parameters: { type: "object", properties: {} } }],
    });
    const dataset = await groundwork.datasets.create(principal, { name: "vendors" });
    await groundwork.datasets.addItems(principal, dataset.id, {
      items: [
        { input: "Who sent INV-1?", expectedOutput: "Acme GmbH" },
        { input: "Please use the tool for INV-2", expectedOutput: "Birch Ltd" },
      ],
    });
    await groundwork.datasets.createVersion(principal, dataset.id);
    const experiment = await groundwork.experiments.create(principal, {
      name: "agent-check",
      datasetId: dataset.id,
      evaluators: [{ type: "exact_match" }],
    });
    await groundwork.experiments.addVariant(principal, experiment.id, {
      name: "agent",
      kind: "agent",
      agent: "agent/vendor-finder",
    });
    const [run] = await groundwork.experiments.startRuns(principal, experiment.id);
    await groundwork.experimentRuns.drain();

    const done = await groundwork.experiments.getRun(principal, experiment.id, run?.id ?? "");
    expect(done).toMatchObject({ status: "completed", total: 2, completed: 1, failed: 1 });
    const results = (
      await groundwork.experiments.listResults(principal, experiment.id, run?.id ?? "", {}, page)
    ).items;
    expect(results[0]).toMatchObject({ status: "completed", output: "Acme GmbH" });
    expect(results[0]?.scores[0]).toMatchObject({ name: "exact_match", value: 1 });
    expect(results[1]).toMatchObject({ status: "failed", error: "agent_paused" });
  });
});
