import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { usageInput } from "../test/usage-input.js";
import { CredentialCipher } from "./credential-cipher.js";
import { openStore, type Store } from "./open-store.js";

const SECRET = "a-master-secret-of-enough-length";
const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

describe("CredentialCipher", () => {
  it("round-trips and binds a ciphertext to its row", () => {
    const cipher = new CredentialCipher(SECRET);
    const sealed = cipher.encrypt("sk-live-123", "prv_1");
    expect(sealed).not.toContain("sk-live-123");
    expect(cipher.decrypt(sealed, "prv_1")).toBe("sk-live-123");
    expect(() => cipher.decrypt(sealed, "prv_2")).toThrow();
    expect(() => new CredentialCipher("another-master-secret!!").decrypt(sealed, "prv_1")).toThrow();
    expect(cipher.encrypt("sk-live-123", "prv_1")).not.toBe(sealed);
  });

  it("refuses to work without a master secret", () => {
    expect(() => new CredentialCipher(null).encrypt("x", "y")).toThrow(/No master secret/);
  });
});

describe("ProviderStore", () => {
  it("stores keys encrypted: no file of the database contains the key", () => {
    const file = join(mkdtempSync(join(tmpdir(), "gw-prv-")), "groundwork.db");
    const store = openStore({ file, secret: SECRET });
    opened.push(store);
    const org = store.organizations.create("acme", "team");
    const record = store.providers.create({
      organizationId: org.id,
      name: "main",
      type: "HOSTED_A",
      config: { baseUrl: "http://127.0.0.1:1/v1" },
      apiKey: "sk-very-secret-provider-key",
    });
    expect(record).toMatchObject({ name: "main", type: "HOSTED_A", hasApiKey: true });
    expect(JSON.stringify(record)).not.toContain("sk-very-secret");
    store.db.pragma("wal_checkpoint(FULL)");
    for (const name of readdirSync(join(file, ".."))) {
      expect(readFileSync(join(file, "..", name)).includes("sk-very-secret-provider-key")).toBe(false);
    }
    expect(store.providers.findWithCredentials(org.id, "HOSTED_A")?.apiKey).toBe(
      "sk-very-secret-provider-key",
    );
  });

  it("scopes every read and write to the organization", () => {
    const store = openStore({ file: ":memory:", secret: SECRET });
    opened.push(store);
    const a = store.organizations.create("a", "team");
    const b = store.organizations.create("b", "team");
    const record = store.providers.create({
      organizationId: a.id,
      name: "p",
      type: "SELF_HOSTED",
      config: {},
      apiKey: null,
    });
    expect(store.providers.get(b.id, record.id)).toBeNull();
    expect(store.providers.findWithCredentials(b.id, "SELF_HOSTED")).toBeNull();
    expect(store.providers.update(b.id, record.id, { name: "stolen" })).toBeNull();
    expect(store.providers.delete(b.id, record.id)).toBe(false);
    expect(store.providers.list(a.id)).toHaveLength(1);
  });

  it("updates name, config and key independently", () => {
    const store = openStore({ file: ":memory:", secret: SECRET });
    opened.push(store);
    const org = store.organizations.create("a", "team");
    const record = store.providers.create({
      organizationId: org.id,
      name: "p",
      type: "HOSTED_B",
      config: { version: "2023-06-01" },
      apiKey: "old",
    });
    store.providers.update(org.id, record.id, { name: "renamed" });
    expect(store.providers.getWithCredentials(org.id, record.id)).toMatchObject({
      record: { name: "renamed", config: { version: "2023-06-01" } },
      apiKey: "old",
    });
    store.providers.update(org.id, record.id, { apiKey: "new", config: {} });
    expect(store.providers.getWithCredentials(org.id, record.id)).toMatchObject({
      record: { config: {} },
      apiKey: "new",
    });
    expect(store.providers.delete(org.id, record.id)).toBe(true);
  });
});

describe("UsageRecordStore", () => {
  it("sums charged cost of built-in calls only", () => {
    const store = openStore({ file: ":memory:" });
    opened.push(store);
    const org = store.organizations.create("a", "team");
    const base = {
      organizationId: org.id,
      apiKeyId: null,
      model: "text-embedding-3-small",
      surface: "EMBEDDINGS" as const,
      promptTokens: 1_000_000,
      completionTokens: 0,
      cachedTokens: null,
      latencyMs: 3,
      outcome: "ok" as const,
      endUser: "u1",
    };
    store.usage.record({ ...base, byok: false, costEur: 0.0825 });
    store.usage.record({ ...base, byok: true, costEur: 0 });
    expect(store.usage.chargedSince(org.id, 0)).toBeCloseTo(0.0825);
    expect(store.usage.list(org.id)).toHaveLength(2);
  });

  it("writes queued rows in one transaction shortly after, counts them before that, and flushes on close", async () => {
    const directory = mkdtempSync(join(tmpdir(), "gw-usage-"));
    const file = join(directory, "usage.db");
    const store = openStore({ file });
    const org = store.organizations.create("a", "team");
    const count = () =>
      (store.db.prepare("SELECT COUNT(*) AS n FROM usage_records").get() as { n: number }).n;
    const event = {
      organizationId: org.id,
      apiKeyId: null,
      model: "m",
      surface: "CHAT" as const,
      byok: false,
      promptTokens: 1,
      completionTokens: 1,
      cachedTokens: null,
      costEur: 0.5,
      latencyMs: 1,
      outcome: "ok" as const,
      endUser: null,
    };
    for (let i = 0; i < 5; i++) store.usage.record(event);
    expect(count()).toBe(0); // queued
    expect(store.usage.chargedSince(org.id, 0)).toBeCloseTo(2.5); // but already counted
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(count()).toBe(5);
    store.usage.record(event);
    store.close(); // flushes the queued row
    const reopened = openStore({ file });
    expect(reopened.usage.list(org.id)).toHaveLength(6);
    reopened.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("keeps a batch that failed to insert and writes it later", () => {
    const store = openStore({ file: ":memory:" });
    opened.push(store);
    const org = store.organizations.create("a", "team");
    store.db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON usage_records BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    store.usage.record(usageInput(org.id, { costEur: 1 }));
    expect(() => store.usage.flush()).toThrow(/disk full/);
    expect(store.usage.chargedSince(org.id, 0)).toBe(1);
    store.db.exec("DROP TRIGGER refuse");
    expect(store.usage.list(org.id)).toHaveLength(1);
  });
});
