import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dedupItems } from "./dedup.js";
import { finishChunked } from "./extraction-engine.js";
import { mergeChunkOutputs } from "./merge.js";
import { canonicalJson } from "./values.js";

const KEY_FIELDS = ["sku", "name"];

// Small value pools make collisions (duplicates, partial overlaps, conflicts) frequent.
const item = fc.record(
  {
    sku: fc.constantFrom("A-1", "A-2", "B-7", " A-1 ", null),
    name: fc.constantFrom("Widget", "Gadget", null),
    qty: fc.constantFrom(1, 2, null),
    note: fc.constantFrom("", "fragile", "urgent"),
  },
  { requiredKeys: [] },
);
const items = fc.array(item, { maxLength: 25 });

function identifierPairs(list: readonly unknown[]): Set<string> {
  const pairs = new Set<string>();
  for (const entry of list) {
    const record = entry as Record<string, unknown>;
    for (const field of KEY_FIELDS) {
      const value = record[field];
      if (typeof value === "string" && value.trim() !== "") pairs.add(`${field}=${value.trim()}`);
    }
  }
  return pairs;
}

describe("dedup (properties)", () => {
  it("is idempotent", () => {
    fc.assert(
      fc.property(items, (list) => {
        const once = dedupItems(list, KEY_FIELDS);
        const twice = dedupItems(once.items, KEY_FIELDS);
        expect(twice.items).toEqual(once.items);
        expect(twice.itemsRemoved).toBe(0);
        expect(twice.itemsMerged).toBe(0);
      }),
      { numRuns: 500 },
    );
  });

  it("never loses a distinct identifier and accounts for every item", () => {
    fc.assert(
      fc.property(items, (list) => {
        const outcome = dedupItems(list, KEY_FIELDS);
        expect(identifierPairs(outcome.items)).toEqual(identifierPairs(list));
        expect(outcome.items.length + outcome.itemsRemoved + outcome.itemsMerged).toBe(list.length);
      }),
      { numRuns: 500 },
    );
  });

  it("removes exact duplicates whatever the key fields", () => {
    fc.assert(
      fc.property(items, fc.constantFrom(KEY_FIELDS, [] as string[]), (list, keys) => {
        const doubled = [...list, ...list];
        const outcome = dedupItems(doubled, keys);
        const texts = outcome.items.map(canonicalJson);
        expect(new Set(texts).size).toBe(texts.length);
      }),
      { numRuns: 300 },
    );
  });

  it("does not modify its input", () => {
    const list = [{ sku: "A-1" }, { sku: "A-1", qty: 2 }];
    const copy = structuredClone(list);
    dedupItems(list, KEY_FIELDS);
    expect(list).toEqual(copy);
  });

  it("merges partial items, keeps conflicting ones apart", () => {
    const outcome = dedupItems(
      [
        { sku: "A-1", name: "Widget", qty: null },
        { sku: "A-1", name: null, qty: 3 },
        { sku: "A-1", name: "Widget", qty: 3 },
        { sku: "A-1", name: "Widget", qty: 5 },
      ],
      KEY_FIELDS,
    );
    expect(outcome.items).toEqual([
      { sku: "A-1", name: "Widget", qty: 3 },
      { sku: "A-1", name: "Widget", qty: 5 },
    ]);
    expect(outcome.itemsMerged).toBe(1);
    expect(outcome.itemsRemoved).toBe(1);
  });
});

describe("merge of chunk outputs (properties)", () => {
  const schema = {
    type: "object",
    properties: {
      parts: {
        type: "array",
        items: {
          type: "object",
          properties: { sku: { type: "string" }, name: { type: ["string", "null"] } },
        },
      },
    },
  };
  const fullItem = fc.record({
    sku: fc.constantFrom("A-1", "A-2", "B-7", "C-9"),
    name: fc.constantFrom("Widget", "Gadget"),
  });

  it("is order-insensitive for identical items", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fullItem, { maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 1_000 }),
        (chunkItems, seed) => {
          const outputs = chunkItems.map((parts) => ({ parts }));
          const shuffled = [...outputs].sort(
            (a, b) => ((outputs.indexOf(a) * 7919 + seed) % 13) - ((outputs.indexOf(b) * 7919 + seed) % 13),
          );
          const chunks = [{ text: JSON.stringify(chunkItems) }];
          const finish = (list: unknown[]) =>
            finishChunked({ jsonSchema: schema }, mergeChunkOutputs(list), chunks).structuredOutput as {
              parts?: unknown[];
            };
          const sortedSet = (value: { parts?: unknown[] }) => (value.parts ?? []).map(canonicalJson).sort();
          expect(sortedSet(finish(shuffled))).toEqual(sortedSet(finish(outputs)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
