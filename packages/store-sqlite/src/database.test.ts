import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "./database.js";
import { openStore, type Store } from "./open-store.js";
import { migrations, runMigrations } from "./run-migrations.js";

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), "gw-store-")), "groundwork.db");
}

describe("openDatabase", () => {
  it("runs in WAL mode with sqlite-vec loaded and FTS5 available", () => {
    const db = openDatabase(tempFile());
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
      const version = db.prepare("SELECT vec_version() AS v").get() as { v: string };
      expect(version.v).toMatch(/^v0\./);
      const distance = db
        .prepare("SELECT vec_distance_cosine(vec_f32(?), vec_f32(?)) AS d")
        .get(JSON.stringify([1, 0]), JSON.stringify([0, 1])) as { d: number };
      expect(distance.d).toBeCloseTo(1);
      db.exec("CREATE VIRTUAL TABLE docs USING fts5(body)");
      db.prepare("INSERT INTO docs (body) VALUES (?)").run("the quick brown fox");
      expect(db.prepare("SELECT COUNT(*) AS n FROM docs WHERE docs MATCH 'quick'").get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it("migrates once: reopening or re-running applies nothing and keeps data", () => {
    const file = tempFile();
    const first = openStore({ file });
    first.organizations.create("acme", "team");
    first.close();

    const db = openDatabase(file);
    try {
      expect(runMigrations(db)).toEqual([]);
      const versions = db.prepare("SELECT version FROM schema_migrations ORDER BY version").all();
      expect(versions).toEqual(migrations.map((m) => ({ version: m.version })));
      expect(db.prepare("SELECT name FROM organizations").all()).toEqual([{ name: "acme" }]);
    } finally {
      db.close();
    }
  });

  it("applies only migrations newer than the database", () => {
    const db = openDatabase(":memory:");
    try {
      const next = { version: 999, name: "probe", sql: "CREATE TABLE probe (x INTEGER)" };
      expect(runMigrations(db, [...migrations, next])).toEqual([999]);
      expect(runMigrations(db, [...migrations, next])).toEqual([]);
    } finally {
      db.close();
    }
  });

  it("rolls a failing migration back completely", () => {
    const db = openDatabase(":memory:");
    try {
      const broken = {
        version: 1000,
        name: "broken",
        sql: "CREATE TABLE half (x INTEGER); SELECT nope FROM nowhere;",
      };
      expect(() => runMigrations(db, [...migrations, broken])).toThrow();
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
      expect(db.prepare("SELECT MAX(version) AS v FROM schema_migrations").get()).toEqual({
        v: Math.max(...migrations.map((m) => m.version)),
      });
    } finally {
      db.close();
    }
  });
});

describe("API keys", () => {
  it("never stores a key in clear: neither the database nor its WAL contains it", () => {
    const file = tempFile();
    const store = openStore({ file });
    opened.push(store);
    const org = store.organizations.create("acme", "enterprise");
    const { key } = store.apiKeys.create({ organizationId: org.id, role: "admin" });
    expect(key).toMatch(/^gw_[A-Za-z0-9_-]{43}$/);
    store.db.pragma("wal_checkpoint(FULL)");
    const secret = key.slice(10);
    for (const name of readdirSync(join(file, ".."))) {
      expect(readFileSync(join(file, "..", name)).includes(secret)).toBe(false);
    }
    const stored = store.db.prepare("SELECT * FROM api_keys").all();
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it("authenticates the key to its organization and role until revoked", () => {
    const store = openStore({ file: ":memory:" });
    opened.push(store);
    const org = store.organizations.create("acme", "team");
    const { key, record } = store.apiKeys.create({ organizationId: org.id, role: "member", name: "ci" });
    expect(store.apiKeys.authenticate(key)).toEqual({
      organizationId: org.id,
      organizationName: "acme",
      plan: "team",
      role: "member",
      apiKeyId: record.id,
    });
    expect(store.apiKeys.authenticate(`${key}x`)).toBeNull();
    expect(store.apiKeys.authenticate("not-a-key")).toBeNull();
    expect(store.apiKeys.revoke(record.id)).toBe(true);
    expect(store.apiKeys.revoke(record.id)).toBe(false);
    expect(store.apiKeys.authenticate(key)).toBeNull();
    expect(store.apiKeys.list(org.id)[0]?.revokedAt).not.toBeNull();
  });

  it("revokes by the key itself too", () => {
    const store = openStore({ file: ":memory:" });
    opened.push(store);
    const org = store.organizations.create("acme", "team");
    const { key } = store.apiKeys.create({ organizationId: org.id, role: "viewer" });
    expect(store.apiKeys.revoke(key)).toBe(true);
    expect(store.apiKeys.authenticate(key)).toBeNull();
  });

  it("ensures organizations by name without changing an existing plan", () => {
    const store = openStore({ file: ":memory:" });
    opened.push(store);
    const first = store.organizations.ensure("default", "enterprise");
    const again = store.organizations.ensure("default", "free");
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.organization).toEqual(first.organization);
  });
});
