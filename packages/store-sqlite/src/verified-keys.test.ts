/**
 * The verified-key cache of ApiKeyStore: a burst of calls reads the key's row once, yet a
 * revocation or plan change made through the store is seen by the very next call, and one
 * made behind its back (another process on the same file) within the TTL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

const opened: Store[] = [];
const directories: string[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function manualClock(start = Date.UTC(2026, 10, 26, 10)) {
  const clock = { time: start, now: () => clock.time };
  return clock;
}

/** Two stores over one database file, like the server and the `groundwork keys` command. */
function twoProcesses(clock: { now(): number }) {
  const directory = mkdtempSync(join(tmpdir(), "gw-keys-"));
  directories.push(directory);
  const file = join(directory, "groundwork.db");
  const server = openStore({ file, clock });
  const other = openStore({ file, clock });
  opened.push(server, other);
  return { server, other };
}

describe("verified API keys", () => {
  it("refuses a revoked key at the very next call, by id and by the key itself", () => {
    const store = openStore({ file: ":memory:" });
    opened.push(store);
    const org = store.organizations.create("acme", "team");
    const first = store.apiKeys.create({ organizationId: org.id, role: "member" });
    const second = store.apiKeys.create({ organizationId: org.id, role: "admin" });
    for (let i = 0; i < 3; i++) expect(store.apiKeys.authenticate(first.key)?.apiKeyId).toBe(first.record.id);
    expect(store.apiKeys.authenticate(second.key)?.role).toBe("admin");
    expect(store.apiKeys.revoke(first.record.id)).toBe(true);
    expect(store.apiKeys.authenticate(first.key)).toBeNull();
    expect(store.apiKeys.authenticate(second.key)?.role).toBe("admin");
    expect(store.apiKeys.revoke(second.key)).toBe(true);
    expect(store.apiKeys.authenticate(second.key)).toBeNull();
  });

  it("answers the new plan at the next call after a plan change", () => {
    const store = openStore({ file: ":memory:" });
    opened.push(store);
    const org = store.organizations.create("acme", "free");
    const { key } = store.apiKeys.create({ organizationId: org.id, role: "member" });
    expect(store.apiKeys.authenticate(key)?.plan).toBe("free");
    store.organizations.setPlan(org.id, "business");
    expect(store.apiKeys.authenticate(key)?.plan).toBe("business");
  });

  it("reads the row again after the TTL: another process's revocation takes effect within a second", () => {
    const clock = manualClock();
    const { server, other } = twoProcesses(clock);
    const org = server.organizations.create("acme", "team");
    const { key, record } = server.apiKeys.create({ organizationId: org.id, role: "member" });
    expect(server.apiKeys.authenticate(key)?.apiKeyId).toBe(record.id);
    expect(other.apiKeys.revoke(record.id)).toBe(true);
    // Within the TTL the server still trusts what it verified (it cannot know without a read)…
    clock.time += 999;
    expect(server.apiKeys.authenticate(key)?.apiKeyId).toBe(record.id);
    // …and from then on reads the row again.
    clock.time += 1;
    expect(server.apiKeys.authenticate(key)).toBeNull();
    clock.time += 5_000;
    expect(server.apiKeys.authenticate(key)).toBeNull();
  });

  it("hands out a copy: a caller changing its principal changes nobody else's", () => {
    const store = openStore({ file: ":memory:" });
    opened.push(store);
    const org = store.organizations.create("acme", "team");
    const { key } = store.apiKeys.create({ organizationId: org.id, role: "viewer" });
    const principal = store.apiKeys.authenticate(key);
    if (principal === null) throw new Error("not verified");
    principal.role = "admin";
    expect(store.apiKeys.authenticate(key)?.role).toBe("viewer");
  });

  it("still records the last use about once a minute", () => {
    const clock = manualClock();
    const store = openStore({ file: ":memory:", clock });
    opened.push(store);
    const org = store.organizations.create("acme", "team");
    const { key } = store.apiKeys.create({ organizationId: org.id, role: "member" });
    const start = clock.time;
    store.apiKeys.authenticate(key);
    expect(store.apiKeys.list(org.id)[0]?.lastUsedAt).toBe(start);
    for (let second = 1; second <= 61; second++) {
      clock.time = start + second * 1000;
      store.apiKeys.authenticate(key);
    }
    expect(store.apiKeys.list(org.id)[0]?.lastUsedAt).toBe(start + 60_000);
  });

  it("never verifies a key that is unknown, malformed or one character off", () => {
    const store = openStore({ file: ":memory:" });
    opened.push(store);
    const org = store.organizations.create("acme", "team");
    const { key } = store.apiKeys.create({ organizationId: org.id, role: "member" });
    expect(store.apiKeys.authenticate(key)).not.toBeNull();
    expect(store.apiKeys.authenticate(`${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`)).toBeNull();
    expect(store.apiKeys.authenticate(key.slice(3))).toBeNull();
    expect(store.apiKeys.authenticate("")).toBeNull();
  });
});
