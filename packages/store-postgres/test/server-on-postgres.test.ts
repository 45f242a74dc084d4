/**
 * The server on PostgreSQL, in this process, on the run's real server (issue #24): two servers
 * starting together on one empty database bootstrap once and answer with the same keys, and the
 * per-organization limits — requests per minute and concurrent calls to an organization's own
 * providers — hold across two platforms on one database, each with its own connection pool as
 * two processes would have. (Process-level: multi-process-server.test.ts.)
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork, storePlanAllowance } from "@groundwork/platform";
import {
  createApp,
  loadConfig,
  openServerStore,
  type ServerStore,
  serveGroundwork,
  silentLogger,
} from "@groundwork/server";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "./test-database.js";

const SECRET = "a-master-secret-shared-by-every-process";
const folders: string[] = [];

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "gw-pg-serve-"));
  folders.push(folder);
  return folder;
}

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe("groundwork serve on PostgreSQL", () => {
  it("two servers starting together on an empty database bootstrap once and share their keys", async () => {
    const url = await createTestDatabase("serve");
    const env = { GROUNDWORK_DATABASE_URL: url, GROUNDWORK_SECRET: SECRET };
    const folderA = dataFolder();
    const folderB = dataFolder();
    const [a, b] = await Promise.all([
      serveGroundwork(loadConfig({ dataDir: folderA, port: "0" }, env), silentLogger),
      serveGroundwork(loadConfig({ dataDir: folderB, port: "0" }, env), silentLogger),
    ]);
    try {
      const bootstraps = [a.bootstrap, b.bootstrap].filter((each) => each !== null);
      expect(bootstraps).toHaveLength(1);
      const key = bootstraps[0]?.key ?? "";
      expect(a.database).toMatch(/^postgresql:\/\/127\.0\.0\.1:\d+\/serve_/);
      expect(a.database).not.toContain("groundwork-test"); // the password stays out
      for (const server of [a, b]) {
        const health = await fetch(`${server.url}/health`);
        expect(await health.json()).toEqual({ status: "ok" });
        const me = await fetch(`${server.url}/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
        expect(me.status).toBe(200);
      }
      // Nothing went to SQLite in the data folders.
      expect(existsSync(join(folderA, "groundwork.db"))).toBe(false);
      expect(existsSync(join(folderB, "groundwork.db"))).toBe(false);
      expect(await a.store.organizations.count()).toBe(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    // A restart on the now initialised database bootstraps nothing.
    const again = await serveGroundwork(loadConfig({ dataDir: folderA, port: "0" }, env), silentLogger);
    expect(again.bootstrap).toBeNull();
    await again.close();
  });

  it("answers /health 503 when the database does not answer", async () => {
    const url = await createTestDatabase("health");
    const server = await serveGroundwork(
      loadConfig(
        { dataDir: dataFolder(), port: "0" },
        { GROUNDWORK_DATABASE_URL: url, GROUNDWORK_SECRET: SECRET },
      ),
      silentLogger,
    );
    try {
      // The pool ended: every query fails, as with a database that went away.
      await server.store.close();
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({
        error: { type: "api_error", code: "service_unavailable" },
      });
    } finally {
      await server.close().catch(() => {});
    }
  });

  it("refuses an unreachable database at start with a message that names no password", async () => {
    const config = loadConfig(
      { dataDir: dataFolder(), port: "0" },
      { GROUNDWORK_DATABASE_URL: "postgres://gw:hunter2@127.0.0.1:1/nowhere", GROUNDWORK_SECRET: SECRET },
    );
    const refused = await serveGroundwork(config, silentLogger).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toMatch(
      /Cannot open the PostgreSQL database postgresql:\/\/127\.0\.0\.1:1\/nowhere/,
    );
    expect(refused?.message).not.toContain("hunter2");
  });
});

describe("limits across processes on one database", () => {
  let upstream: Upstream;
  const opened: ServerStore[] = [];

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ models: ["gpt-x"] });
  });
  afterAll(async () => {
    await upstream.close();
    for (const each of opened) await each.store.close();
  });

  /** One "process": its own pool on the database, its own platform and app, the server's composition. */
  async function processOn(url: string) {
    const server = await openServerStore({ kind: "postgres", url, poolSize: 4 }, { secret: SECRET });
    opened.push(server);
    const { store, limits } = server;
    const groundwork = createGroundwork({
      store,
      config: { builtin: null, byokConcurrency: 2, allowPrivateNetwork: true },
      allowance: storePlanAllowance(store, {
        tiers: { team: { requests_per_minute: 5 } },
        ...(limits.requests === undefined ? {} : { requests: limits.requests }),
      }),
      limits,
      fetch: createFastFetch(),
    });
    return { store, app: createApp({ groundwork, logger: silentLogger }) };
  }

  it("admits exactly the plan's requests per minute and BYOK calls across two platforms", async () => {
    const url = await createTestDatabase("limits");
    const one = await processOn(url);
    const two = await processOn(url);
    const apps = [one.app, two.app];

    // Requests per minute: 12 at once, alternating between the two, against a limit of 5.
    const team = await one.store.organizations.create("rate", "team");
    const { key: teamKey } = await one.store.apiKeys.create({ organizationId: team.id, role: "member" });
    // The count is per UTC minute: stay clear of a minute's end.
    const second = new Date().getUTCSeconds();
    if (second > 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        apps[i % 2]?.request("/v1/me", { headers: { Authorization: `Bearer ${teamKey}` } }),
      ),
    );
    const rate = statuses.map((response) => response?.status);
    expect(rate.filter((status) => status === 200)).toHaveLength(5);
    expect(rate.filter((status) => status === 429)).toHaveLength(7);

    // Concurrent BYOK calls: 4 at once, two on each platform, against a limit of 2.
    const business = await one.store.organizations.create("byok", "business");
    const { key } = await one.store.apiKeys.create({ organizationId: business.id, role: "admin" });
    const post = (app: (typeof apps)[number] | undefined, path: string, body: unknown) =>
      app?.request(path, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const provider = await post(one.app, "/v1/providers", {
      name: "own model server",
      provider: "SELF_HOSTED",
      config: { baseUrl: upstream.url },
    });
    expect(provider?.status).toBe(201);
    upstream.handler = () => ({ text: "slow", delayMs: 1500 });
    const calls = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        post(apps[i % 2], "/v1/chat/completions", {
          model: "self-hosted/gpt-x",
          messages: [{ role: "user", content: `call ${i}` }],
        }),
      ),
    );
    const byok = calls.map((response) => response?.status);
    expect(byok.filter((status) => status === 200)).toHaveLength(2);
    expect(byok.filter((status) => status === 429)).toHaveLength(2);
    expect(upstream.requests).toHaveLength(2);
    // Every slot was given back: the next call is admitted.
    upstream.handler = () => ({ text: "quick" });
    expect(
      (
        await post(two.app, "/v1/chat/completions", {
          model: "self-hosted/gpt-x",
          messages: [{ role: "user", content: "again" }],
        })
      )?.status,
    ).toBe(200);
  });
});
