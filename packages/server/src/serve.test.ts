/**
 * The server as `groundwork serve` runs it, over real sockets: usage rows and trace spans are
 * written behind the request (HP4, HP14), yet a read right after a call sees it, and closing the
 * server (the SIGINT/SIGTERM path of the CLI) writes everything still queued before the database
 * closes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@groundwork/store-sqlite";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFile, loadConfig } from "./config.js";
import { type RunningServer, serveGroundwork } from "./serve.js";

let upstream: Upstream;
let directory: string;
let server: RunningServer;
let key: string;

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gw-chat-1"] });
  directory = mkdtempSync(join(tmpdir(), "gw-serve-"));
  const config = loadConfig(
    { dataDir: directory, host: "127.0.0.1", port: "0" },
    {
      GROUNDWORK_BUILTIN_BASE_URL: upstream.url,
      GROUNDWORK_BUILTIN_API_KEY: "upstream-key",
      GROUNDWORK_SECRET: "serve-test-secret-0123456789",
      GROUNDWORK_LOG_LEVEL: "error",
    },
  );
  server = await serveGroundwork(config);
  key = server.bootstrap?.key ?? "";
});
afterAll(async () => {
  await server.close();
  await upstream.close();
  rmSync(directory, { recursive: true, force: true });
});

const headers = () => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
const chat = (stream: boolean) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({ model: "gw-chat-1", messages: [{ role: "user", content: "hello" }], stream }),
  });
const read = async (path: string) => {
  const response = await fetch(`${server.url}${path}`, { headers: headers() });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

describe("serveGroundwork: usage and traces written behind the request", () => {
  it("shows a call to the next read, and keeps every queued row when the server closes", async () => {
    upstream.enqueue({ text: "Hi", usage: { inputTokens: 3, outputTokens: 1 } });
    const json = await chat(false);
    expect(json.status).toBe(200);
    await json.text();
    // Queued for up to 20 ms, yet the read at once counts it.
    expect(await read("/v1/analytics/summary")).toMatchObject({ requests: 1, promptTokens: 3 });

    upstream.enqueue({ text: "Hello streaming world", usage: { inputTokens: 4, outputTokens: 3 } });
    const stream = await chat(true);
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain("data: [DONE]");
    expect(await read("/v1/analytics/summary")).toMatchObject({ requests: 2, promptTokens: 7 });
    expect((await read("/v1/traces")).totalElements).toBe(2);

    // Calls whose rows are still queued when the server closes.
    for (let i = 0; i < 3; i++) {
      upstream.enqueue({ text: "Hi", usage: { inputTokens: 1, outputTokens: 1 } });
      await (await chat(i % 2 === 0)).text();
    }
    await server.close();
    const store = openStore({ file: databaseFile(directory) });
    try {
      const count = (sql: string) => (store.db.prepare(sql).get() as { n: number }).n;
      expect(count("SELECT COUNT(*) AS n FROM usage_records")).toBe(5);
      expect(count("SELECT SUM(requests) AS n FROM usage_hourly")).toBe(5);
      expect(count("SELECT COUNT(*) AS n FROM traces")).toBe(5);
    } finally {
      store.close();
    }
  }, 30_000);
});
