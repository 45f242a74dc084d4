/**
 * Property: whatever sequence of adds, batch adds, edits, deletes and freezes runs, every
 * version lists exactly the items (ids, order, values) that were current when it was frozen,
 * and the current listing matches a plain in-memory model — at any page size.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork } from "../create-groundwork.js";

type Op =
  | { kind: "add"; inputs: number[] }
  | { kind: "edit"; pick: number; expectedOutput: number | null }
  | { kind: "meta"; pick: number; tag: string }
  | { kind: "delete"; pick: number }
  | { kind: "freeze" };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("add" as const),
    inputs: fc.array(fc.integer(), { minLength: 1, maxLength: 5 }),
  }),
  fc.record({
    kind: fc.constant("edit" as const),
    pick: fc.nat(),
    expectedOutput: fc.option(fc.integer(), { nil: null }),
  }),
  fc.record({ kind: fc.constant("meta" as const), pick: fc.nat(), tag: fc.string({ maxLength: 4 }) }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
  fc.constant({ kind: "freeze" as const }),
);

interface ModelItem {
  id: string;
  input: unknown;
  expectedOutput: unknown;
  metadata: Record<string, unknown>;
}

describe("dataset versions (property)", () => {
  it("freeze exactly the items current at the time, in order", async () => {
    // One store for every run; each run works in an organization of its own.
    const store = await openTestStore();
    const groundwork = createGroundwork({ store });
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(op, { maxLength: 40 }),
          fc.integer({ min: 1, max: 7 }),
          async (ops, size) => {
            const principal = await groundwork.principal(`acme-${++run}`, "member");
            const service = groundwork.datasets;
            const ds = await service.create(principal, { name: "p" });
            let current: ModelItem[] = [];
            const frozen = new Map<number, ModelItem[]>();
            for (const step of ops) {
              const target =
                current.length === 0 ? undefined : current[("pick" in step ? step.pick : 0) % current.length];
              if (step.kind === "add") {
                const { items } = await service.addItems(principal, ds.id, {
                  items: step.inputs.map((input) => ({ input })),
                });
                current.push(
                  ...items.map(({ id, input, expectedOutput, metadata }) => ({
                    id,
                    input,
                    expectedOutput,
                    metadata,
                  })),
                );
              } else if (step.kind === "edit" && target !== undefined) {
                await service.updateItem(principal, ds.id, target.id, {
                  expectedOutput: step.expectedOutput,
                });
                current = current.map((item) =>
                  item.id === target.id ? { ...item, expectedOutput: step.expectedOutput } : item,
                );
              } else if (step.kind === "meta" && target !== undefined) {
                await service.updateItem(principal, ds.id, target.id, { metadata: { tag: step.tag } });
                current = current.map((item) =>
                  item.id === target.id ? { ...item, metadata: { tag: step.tag } } : item,
                );
              } else if (step.kind === "delete" && target !== undefined) {
                await service.deleteItem(principal, ds.id, target.id);
                current = current.filter((item) => item.id !== target.id);
              } else if (step.kind === "freeze" && current.length > 0) {
                const version = await service.createVersion(principal, ds.id, {});
                frozen.set(version.versionNumber, [...current]);
              }
            }
            const listAll = async (version: string | undefined) => {
              const out: ModelItem[] = [];
              for (let page = 0; ; page++) {
                const result = await service.listItems(
                  principal,
                  ds.id,
                  version === undefined ? {} : { version },
                  {
                    page,
                    size,
                  },
                );
                out.push(
                  ...result.items.map(({ id, input, expectedOutput, metadata }) => ({
                    id,
                    input,
                    expectedOutput,
                    metadata,
                  })),
                );
                if (result.items.length < size) {
                  expect(out.length).toBe(result.total);
                  return out;
                }
              }
            };
            expect(await listAll(undefined)).toEqual(current);
            expect((await service.get(principal, ds.id)).itemCount).toBe(current.length);
            for (const [number, items] of frozen) expect(await listAll(String(number))).toEqual(items);
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      await groundwork.close();
      await store.close();
    }
  });
});
