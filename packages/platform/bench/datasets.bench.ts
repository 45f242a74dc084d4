/**
 * Datasets at scale, each beside its floor on the same connection and table:
 * - add 1,000 items in one call (`groundwork.datasets.addItems`, target < 100 ms) vs a raw
 *   prepared INSERT loop of the same rows in one transaction;
 * - list a page of 100 items of a 100,000-item dataset (target p50 < 10 ms), page 0 and a page
 *   deep in the set, current items and a frozen version, vs a raw `SELECT … LIMIT 100 OFFSET`.
 * Run: pnpm bench (or npx vitest bench --run --project platform bench/datasets.bench.ts after a build).
 */
import { openStore } from "@groundwork/store-sqlite";
import { bench, describe } from "vitest";
import { createGroundwork } from "../src/create-groundwork.js";

const store = openStore({ file: ":memory:" });
const groundwork = createGroundwork({ store });
const org = await groundwork.principal("bench", "member");
const item = (i: number) => ({
  input: {
    question: `What is the status of order ${i}?`,
    context: "The customer wrote in about a late parcel.",
  },
  expectedOutput: { answer: `Order ${i} ships tomorrow.` },
  metadata: { source: "bench", i },
});
const batch = Array.from({ length: 1_000 }, (_, i) => item(i));

// The dataset the adds go to is emptied between runs by swapping in a fresh one, so the limit is never hit.
let target = (await groundwork.datasets.create(org, { name: "adds-0" })).id;
let runs = 0;
const freshTarget = async () => {
  if (++runs % 50 === 0) target = (await groundwork.datasets.create(org, { name: `adds-${runs}` })).id;
};

const rawInsert = store.db.prepare(
  `INSERT INTO dataset_items (dataset_id, item_id, position, input, expected_output, metadata, source_trace_id, created_at, updated_at, valid_from)
     VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, 1)`,
);
const rawTarget = (await groundwork.datasets.create(org, { name: "raw-adds" })).id;
let rawPosition = 0;
const rawAdd = store.db.transaction(() => {
  const now = Date.now();
  for (const entry of batch) {
    rawInsert.run(
      rawTarget,
      `dsi_raw${rawPosition}`,
      rawPosition++,
      JSON.stringify(entry.input),
      JSON.stringify(entry.expectedOutput),
      JSON.stringify(entry.metadata),
      now,
      now,
    );
  }
});

// 100,000 items, frozen as version 1, then 1,000 edits and 1,000 deletes so version 1 and the
// current set differ (the version must skip closed revisions, the current listing tombstones).
const big = (await groundwork.datasets.create(org, { name: "big" })).id;
for (let i = 0; i < 100; i++) {
  await groundwork.datasets.addItems(org, big, {
    items: batch.map((entry, j) => ({ ...entry, input: i * 1_000 + j })),
  });
}
await groundwork.datasets.createVersion(org, big, {});
const firstPage = (await groundwork.datasets.listItems(org, big, {}, { page: 0, size: 100 })).items;
for (const [index, entry] of (
  await groundwork.datasets.listItems(org, big, {}, { page: 500, size: 100 })
).items.entries()) {
  if (index % 2 === 0) await groundwork.datasets.updateItem(org, big, entry.id, { expectedOutput: "edited" });
}
for (const entry of firstPage.slice(0, 50)) await groundwork.datasets.deleteItem(org, big, entry.id);
const rawPage = store.db.prepare(
  `SELECT * FROM dataset_items WHERE dataset_id = ? AND valid_to IS NULL ORDER BY position LIMIT 100 OFFSET ?`,
);
const DEEP = 800; // items 80,000–80,099

describe("add 1,000 items in one call", () => {
  bench("groundwork.datasets.addItems (1,000 items)", async () => {
    freshTarget();
    await groundwork.datasets.addItems(org, target, { items: batch });
  });

  bench("baseline: raw prepared INSERT loop in one transaction", () => {
    rawAdd();
  });
});

describe("list 100 items of a 100,000-item dataset", () => {
  bench("groundwork.datasets.listItems, page 0", async () => {
    await groundwork.datasets.listItems(org, big, {}, { page: 0, size: 100 });
  });

  bench(`groundwork.datasets.listItems, page ${DEEP}`, async () => {
    await groundwork.datasets.listItems(org, big, {}, { page: DEEP, size: 100 });
  });

  bench(`groundwork.datasets.listItems, version 1, page ${DEEP}`, async () => {
    await groundwork.datasets.listItems(org, big, { version: "1" }, { page: DEEP, size: 100 });
  });

  bench("baseline: raw SELECT … LIMIT 100 OFFSET 0", () => {
    rawPage.all(big, 0);
  });

  bench(`baseline: raw SELECT … LIMIT 100 OFFSET ${DEEP * 100}`, () => {
    rawPage.all(big, DEEP * 100);
  });
});
