/** The billing counters: pages per month, stored bytes (not memory), active keys — per organization. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

let store: Store;
let org: string;
let other: string;

beforeEach(() => {
  store = openStore({ file: ":memory:" });
  org = store.organizations.create("acme", "free").id;
  other = store.organizations.create("other", "free").id;
});
afterEach(() => store.close());

const JAN = Date.UTC(2025, 0, 1);
const FEB = Date.UTC(2025, 1, 1);

describe("BillingStore", () => {
  it("adds pages to the month and reads them since a month's start", () => {
    store.billing.recordPages(org, JAN, 3);
    store.billing.recordPages(org, JAN, 4);
    store.billing.recordPages(org, FEB, 2);
    store.billing.recordPages(org, FEB, 0);
    store.billing.recordPages(other, FEB, 100);
    expect(store.billing.pagesSince(org, JAN)).toBe(9);
    expect(store.billing.pagesSince(org, FEB)).toBe(2);
    expect(store.billing.pagesSince(other, JAN)).toBe(100);
    expect(store.billing.pagesSince(store.organizations.create("new", "team").id, JAN)).toBe(0);
  });

  it("counts live files, skill versions and plugin manifests, never memory or other organizations", () => {
    expect(store.billing.storedBytes(org)).toBe(0);
    const file = store.files.create({
      organizationId: org,
      filename: "a.txt",
      purpose: "knowledge",
      mime: "text/plain",
      bytes: new Uint8Array(100),
    });
    store.files.create({
      organizationId: other,
      filename: "b.txt",
      purpose: "knowledge",
      mime: "text/plain",
      bytes: new Uint8Array(5000),
    });
    const skill = store.skills.create(org, { name: "s", namespace: null, description: "d" });
    const version = {
      name: "s",
      description: "d",
      frontmatter: {},
      skillMd: "# s",
      files: [{ path: "SKILL.md", size: 3, sha256: "x", bytes: new TextEncoder().encode("# s") }],
      totalSize: 30,
      source: "import" as const,
    };
    store.skills.commitVersion(skill.id, version);
    store.skills.commitVersion(skill.id, version);
    store.memoryFiles.create({ organizationId: org, memberId: "key_1" }, "/memories/a.md", {
      content: "x".repeat(50),
      size: 50,
      sha256: "y",
      lineCount: 1,
    });
    expect(store.billing.storedBytes(org)).toBe(160);
    store.files.delete(org, file.id);
    expect(store.billing.storedBytes(org)).toBe(60);
    expect(store.billing.storedBytes(other)).toBe(5000);
  });

  it("counts unrevoked keys as seats", () => {
    const first = store.apiKeys.create({ organizationId: org, role: "admin" });
    store.apiKeys.create({ organizationId: org, role: "viewer" });
    store.apiKeys.create({ organizationId: other, role: "viewer" });
    expect(store.billing.activeKeys(org)).toBe(2);
    store.apiKeys.revoke(first.key);
    expect(store.billing.activeKeys(org)).toBe(1);
  });
});
