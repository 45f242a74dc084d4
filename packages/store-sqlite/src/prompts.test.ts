import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

let store: Store;
let org: string;
let other: string;
let now = 1_000;

beforeEach(() => {
  store = openStore({ file: ":memory:", clock: { now: () => now++ } });
  org = store.organizations.create("acme", "enterprise").id;
  other = store.organizations.create("globex", "enterprise").id;
});
afterEach(() => store.close());

const page = { page: 0, size: 20 };
const version = (text: string) => ({ prompt: text, config: {}, variables: [] });

describe("PromptStore", () => {
  it("creates prompts with a latest label pointing at nothing; names are unique per organization", () => {
    const prompt = store.prompts.create(org, { name: "greet", type: "text", tags: ["a"] });
    expect(prompt).toMatchObject({
      name: "greet",
      type: "text",
      tags: ["a"],
      description: null,
      latestVersionId: null,
      latestVersionNumber: null,
    });
    expect(store.prompts.create(org, { name: "greet", type: "chat" })).toBeNull();
    expect(store.prompts.create(other, { name: "greet", type: "chat" })).not.toBeNull();
    expect(store.prompts.get(other, prompt?.id ?? "")).toBeNull();
    expect(store.prompts.listLabels(prompt?.id ?? "")).toEqual([
      expect.objectContaining({ name: "latest", promptVersionId: null, versionNumber: null }),
    ]);
  });

  it("numbers versions, moves latest, deactivates and lists labels per version", () => {
    const prompt = store.prompts.create(org, { name: "p", type: "text" });
    const id = prompt?.id ?? "";
    const v1 = store.prompts.commitVersion(id, version("one"));
    const v2 = store.prompts.commitVersion(id, { ...version("two {{x}}"), variables: ["x"] });
    expect([v1.versionNumber, v2.versionNumber]).toEqual([1, 2]);
    expect(v2).toMatchObject({ prompt: "two {{x}}", variables: ["x"], active: true });
    expect(store.prompts.get(org, id)).toMatchObject({ latestVersionId: v2.id, latestVersionNumber: 2 });
    expect(store.prompts.createLabel(id, "production", v1.id)).toBe(true);
    expect(store.prompts.createLabel(id, "production", v2.id)).toBe(false);
    expect(store.prompts.labelsOf(v1.id)).toEqual(["production"]);
    expect(store.prompts.labelsOf(v2.id)).toEqual(["latest"]);
    expect(store.prompts.deactivateVersion(id, v2.id)).toBe(true);
    expect(store.prompts.deactivateVersion(id, v2.id)).toBe(false);
    expect(store.prompts.labelsOf(v1.id)).toEqual(["latest", "production"]);
    expect(store.prompts.getVersionByNumber(id, 2)).toMatchObject({ active: false });
    expect(store.prompts.listVersions(id, page).items.map((v) => v.versionNumber)).toEqual([2, 1]);
    expect(store.prompts.listLabels(id).map((l) => [l.name, l.versionNumber])).toEqual([
      ["latest", 1],
      ["production", 1],
    ]);
  });

  it("filters by name substring, tag, type and label; newest first", () => {
    const a = store.prompts.create(org, { name: "Support/Greeting", type: "text", tags: ["cs", "en"] });
    store.prompts.create(org, { name: "summary_v2", type: "chat", tags: ["en"] });
    store.prompts.create(other, { name: "greeting", type: "text" });
    const v = store.prompts.commitVersion(a?.id ?? "", version("hi"));
    store.prompts.createLabel(a?.id ?? "", "production", v.id);
    const names = (filter: Parameters<Store["prompts"]["list"]>[1]) =>
      store.prompts.list(org, filter, page).items.map((p) => p.name);
    expect(names({})).toEqual(["summary_v2", "Support/Greeting"]);
    expect(names({ name: "GREET" })).toEqual(["Support/Greeting"]);
    expect(names({ name: "y_v" })).toEqual(["summary_v2"]);
    expect(names({ tag: "en" })).toEqual(["summary_v2", "Support/Greeting"]);
    expect(names({ tag: "cs" })).toEqual(["Support/Greeting"]);
    expect(names({ type: "chat" })).toEqual(["summary_v2"]);
    expect(names({ label: "production" })).toEqual(["Support/Greeting"]);
    expect(names({ label: "latest" })).toEqual(["Support/Greeting"]);
    expect(store.prompts.list(org, {}, { page: 1, size: 1 })).toMatchObject({ total: 2 });
  });

  it("renames with a conflict check and deletes versions and labels with the prompt", () => {
    const a = store.prompts.create(org, { name: "a", type: "text" });
    store.prompts.create(org, { name: "b", type: "text" });
    const id = a?.id ?? "";
    expect(store.prompts.update(org, id, { name: "b" })).toBe("conflict");
    expect(store.prompts.update(org, id, { name: "c", tags: ["x"] })).toMatchObject({
      name: "c",
      tags: ["x"],
    });
    expect(store.prompts.update(other, id, { name: "d" })).toBeNull();
    const v = store.prompts.commitVersion(id, version("hi"));
    expect(store.prompts.delete(other, id)).toBe(false);
    expect(store.prompts.delete(org, id)).toBe(true);
    expect(store.prompts.versionById(v.id)).toBeNull();
    expect(store.prompts.listLabels(id)).toEqual([]);
  });
});
