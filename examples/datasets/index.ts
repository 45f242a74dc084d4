// Builds an evaluation dataset: items added in one batch, a version frozen, an edit that the version does not see.
// From the repository root, after a build: node --import tsx examples/datasets/index.ts
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({ store: openStore({ file: ":memory:" }) });
const org = await groundwork.principal("acme");
const dataset = await groundwork.datasets.create(org, {
  name: "support-golden",
  description: "hand-checked answers",
});
// Up to 1,000 items per call, validated as a whole and kept in the call's order.
const { count, items } = await groundwork.datasets.addItems(org, dataset.id, {
  items: [
    { input: { question: "How do I reset my password?" }, expectedOutput: "Settings → Security → Reset" },
    { input: { question: "Can I change my plan?" }, expectedOutput: "Yes, under Billing" },
    { input: { question: "Do you ship abroad?" }, metadata: { topic: "shipping" } },
  ],
});
const v1 = await groundwork.datasets.createVersion(org, dataset.id, { description: "baseline" });
// Later edits and deletes change the current items, never a frozen version.
await groundwork.datasets.updateItem(org, dataset.id, items[2]?.id ?? "", {
  expectedOutput: "To 30 countries",
});
await groundwork.datasets.deleteItem(org, dataset.id, items[0]?.id ?? "");
const page = { page: 0, size: 100 };
const frozen = await groundwork.datasets.listItems(
  org,
  dataset.id,
  { version: String(v1.versionNumber) },
  page,
);
const current = await groundwork.datasets.listItems(org, dataset.id, {}, page);
console.log(count, `v${v1.versionNumber}`, frozen.total, current.total);
console.log(frozen.items.map((item) => item.expectedOutput));
console.log(current.items.map((item) => item.expectedOutput));
// #endregion readme
