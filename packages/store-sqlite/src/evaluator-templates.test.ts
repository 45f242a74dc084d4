import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

let store: Store;
let now = 1_000;
let organizationId: string;
let otherId: string;
beforeEach(() => {
  now = 1_000;
  store = openStore({ file: ":memory:", clock: { now: () => now } });
  organizationId = store.organizations.create("acme", "team").id;
  otherId = store.organizations.create("other", "team").id;
});
afterEach(() => store.close());

const input = {
  name: "helpfulness",
  description: null,
  prompt: "Rate {{output}}",
  model: "gpt-4o-mini",
  scale: { type: "numeric", min: 1, max: 5 },
};

describe("EvaluatorTemplateStore", () => {
  it("creates, reads, lists newest first and scopes by organization", () => {
    const first = store.evaluatorTemplates.create(organizationId, input);
    now += 1;
    const second = store.evaluatorTemplates.create(organizationId, { ...input, name: "tone" });
    expect(first).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      version: 1,
      createdAt: 1_000,
      scale: input.scale,
    });
    expect(store.evaluatorTemplates.get(organizationId, first.id)).toEqual(first);
    expect(store.evaluatorTemplates.get(otherId, first.id)).toBeNull();
    expect(store.evaluatorTemplates.findByName(organizationId, "tone")?.id).toBe(second.id);
    const page = store.evaluatorTemplates.list(organizationId, { page: 0, size: 1 });
    expect(page.total).toBe(2);
    expect(page.items.map((t) => t.id)).toEqual([second.id]);
    expect(store.evaluatorTemplates.list(otherId, { page: 0, size: 10 }).total).toBe(0);
  });

  it("increments the version on every update and deletes within the organization only", () => {
    const created = store.evaluatorTemplates.create(organizationId, input);
    now += 5;
    const updated = store.evaluatorTemplates.update(created, { ...input, prompt: "Judge {{output}}" });
    expect(updated).toMatchObject({
      version: 2,
      prompt: "Judge {{output}}",
      createdAt: 1_000,
      updatedAt: 1_005,
    });
    expect(store.evaluatorTemplates.update(updated, input).version).toBe(3);
    expect(store.evaluatorTemplates.delete(otherId, created.id)).toBe(false);
    expect(store.evaluatorTemplates.delete(organizationId, created.id)).toBe(true);
    expect(store.evaluatorTemplates.get(organizationId, created.id)).toBeNull();
  });

  it("enforces unique names per organization", () => {
    store.evaluatorTemplates.create(organizationId, input);
    expect(() => store.evaluatorTemplates.create(organizationId, input)).toThrow(/UNIQUE/);
    expect(() => store.evaluatorTemplates.create(otherId, input)).not.toThrow();
  });
});
