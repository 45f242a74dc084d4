// Compares two versions of a prompt on a dataset: one run per version, the first as baseline, and
// the items the second version made worse. Runs through an organization's own provider.
// From the repository root, after a build: OPENAI_API_KEY=sk-... node --import tsx examples/experiments/index.ts
// (OPENAI_BASE_URL points it at another OpenAI-compatible server; CI points it at testkit's scripted upstream.)
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({
  store: openStore({ file: ":memory:", secret: "a-long-random-master-secret" }),
});
const me = await groundwork.principal("acme");
await groundwork.providers.create(me.organizationId, {
  name: "openai",
  provider: "HOSTED_A",
  config: { baseUrl: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1" },
  apiKey: process.env.OPENAI_API_KEY ?? "",
});
// A frozen dataset: each tagline must name the product (the expected output, checked with `contains`).
const dataset = await groundwork.datasets.create(me, { name: "taglines" });
await groundwork.datasets.addItems(me, dataset.id, {
  items: [
    { input: { product: "Acme Phone", category: "phone" }, expectedOutput: "phone" },
    { input: { product: "Acme Kettle", category: "kitchen" }, expectedOutput: "kettle" },
    { input: { product: "Acme Lamp", category: "lighting" }, expectedOutput: "lamp" },
  ],
});
await groundwork.datasets.createVersion(me, dataset.id);
const prompt = await groundwork.prompts.create(me.organizationId, {
  name: "tagline",
  type: "text",
  prompt: "Write a one-line tagline for {{product}}.",
  config: { model: "hosted-a/gpt-4o-mini" },
});
await groundwork.prompts.createVersion(me.organizationId, prompt.id, {
  prompt: "Write a one-line tagline for our new {{category}} product.",
  config: { model: "hosted-a/gpt-4o-mini" },
});

const experiment = await groundwork.experiments.create(me, {
  name: "tagline v1 vs v2",
  datasetId: dataset.id,
  evaluators: [{ name: "names-product", type: "contains" }],
});
for (const version of [1, 2]) {
  await groundwork.experiments.addVariant(me, experiment.id, {
    name: `v${version}`,
    kind: "prompt",
    promptId: prompt.id,
    promptRef: version,
  });
}
const [v1, v2] = await groundwork.experiments.startRuns(me, experiment.id);
await groundwork.experimentRuns.drain(); // an app calls groundwork.start() to run them in the background
await groundwork.experiments.setBaseline(me, experiment.id, { runId: v1?.id });
const regression = await groundwork.experiments.regression(me, experiment.id, v2?.id ?? "", {});
const items = (await groundwork.datasets.listItems(me, dataset.id, { version: "1" }, { page: 0, size: 100 }))
  .items;
const productOf = (itemId: string) =>
  (items.find((item) => item.id === itemId)?.input as { product?: string } | undefined)?.product;
console.log(
  "regressed:",
  regression.items.filter((e) => e.verdict === "regressed").map((e) => productOf(e.datasetItemId)),
);
console.log(regression.summary.total);
for (const run of (await groundwork.experiments.comparison(me, experiment.id, {})).runs) {
  console.log(run.variantName, run.means, run.regressions);
}
// #endregion readme
