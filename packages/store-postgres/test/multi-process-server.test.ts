/**
 * Issue #24, deliverable 5: two `groundwork serve --no-workers` processes and two
 * `groundwork worker` processes (the built CLI) on one database of the run's PostgreSQL server.
 * 200 asynchronous jobs submitted across both servers over loopback HTTP all complete exactly
 * once (each effect counted once, results read from the other server), both workers take part,
 * and a worker killed with SIGKILL mid-job loses nothing: its job completes on the other once the
 * lease lapses. Extractions join the conversions once schemas are on PostgreSQL (their jobs need
 * the schema version); until then all 200 jobs are conversions.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type RecordedRequest,
  type StartedServer,
  startOpenAIUpstream,
  startServer,
  type Upstream,
} from "@groundwork/testkit";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "./test-database.js";

const CLI = fileURLToPath(new URL("../../server/dist/cli.js", import.meta.url));
const JOBS = 200;
const LEASE_SECONDS = 3;
const MODEL = "gw-chat-1";

let url: string;
let db: pg.Pool;
let upstream: Upstream;
let env: Record<string, string>;
const folders: string[] = [];
const servers: StartedServer[] = [];
const workers: ChildProcess[] = [];

function folder(): string {
  const path = mkdtempSync(join(tmpdir(), "gw-mp-"));
  folders.push(path);
  return path;
}

/** `groundwork worker`, resolved once it says it runs. */
async function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, "worker", "--data", folder()], {
    env: { ...process.env, GROUNDWORK_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  workers.push(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Groundwork worker running")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
  return child;
}

/** Holds every request until `release()`; afterwards answers at once. Counts requests per path. */
function startHoldingSource(): Promise<{
  origin: string;
  held: () => number;
  hits: (path: string) => number;
  release: () => void;
  close: () => Promise<void>;
}> {
  const waiting: Array<{ request: IncomingMessage; response: ServerResponse }> = [];
  const hits = new Map<string, number>();
  let released = false;
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    if (response.destroyed) return;
    response.writeHead(200, { "content-type": "text/plain" });
    response.end(`Held document ${request.url}: the quay in Hamburg.\n`);
  };
  const server: Server = createServer((request, response) => {
    hits.set(request.url ?? "", (hits.get(request.url ?? "") ?? 0) + 1);
    if (released) answer(request, response);
    else waiting.push({ request, response });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        held: () => waiting.filter(({ response }) => !response.destroyed).length,
        hits: (path) => hits.get(path) ?? 0,
        release() {
          released = true;
          for (const { request, response } of waiting.splice(0)) answer(request, response);
        },
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function userText(request: RecordedRequest): string {
  const body = request.body as { messages?: Array<{ role: string; content: unknown }> };
  const content = body.messages?.find((m) => m.role === "user")?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content
        .map((part: { type: string; text?: string }) => (part.type === "text" ? (part.text ?? "") : ""))
        .join("\n")
    : "";
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: string }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`The built CLI is missing at ${CLI}: run \`pnpm build\` first`);
  url = await createTestDatabase("multi_server");
  db = new pg.Pool({ connectionString: url, max: 2 });
  upstream = await startOpenAIUpstream({ models: [MODEL] });
  // A model that reads the invoice number off the text, as an extraction model would.
  upstream.handler = (request) => ({
    text: JSON.stringify({ invoiceNumber: /Invoice (INV-\d+)/.exec(userText(request))?.[1] ?? null }),
  });
  env = {
    GROUNDWORK_DATABASE_URL: url,
    GROUNDWORK_SECRET: "one-master-secret-for-every-process",
    GROUNDWORK_ALLOW_PRIVATE_NETWORK: "1",
    GROUNDWORK_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
    GROUNDWORK_BUILTIN_BASE_URL: upstream.url,
    GROUNDWORK_BUILTIN_API_KEY: "builtin-secret",
    GROUNDWORK_WORKERS: "0",
  };
  // The first server migrates and bootstraps; the second finds both done.
  servers.push(await startServer({ dataDir: folder(), env, timeoutMs: 60_000 }));
  servers.push(await startServer({ dataDir: folder(), env, timeoutMs: 60_000 }));
  await Promise.all([startWorker(), startWorker()]);
}, 180_000);

afterAll(async () => {
  for (const child of workers) if (child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(servers.map((server) => server.stop()));
  await upstream?.close();
  await db?.end();
  for (const path of folders) rmSync(path, { recursive: true, force: true });
}, 60_000);

describe("two servers and two workers on one database", () => {
  it("run 200 jobs submitted across both servers exactly once, and survive kill -9 of a worker mid-job", async () => {
    const [one, two] = servers;
    if (one === undefined || two === undefined) throw new Error("servers did not start");
    expect(one.adminKey).toMatch(/^gw_/);
    expect(two.adminKey).toBeNull();
    // A key created by the CLI on the same database works on both servers.
    const key = execFileSync(
      process.execPath,
      [CLI, "keys", "create", "--data", folder(), "--org", "default", "--role", "member"],
      { env: { ...process.env, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    )
      .trim()
      .split("\n")
      .at(-1) as string;
    expect(key).toMatch(/^gw_/);
    const call = (server: StartedServer, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { Authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    // The pages billed, read from the table.
    const pagesBilled = () => count("SELECT COALESCE(sum(pages), 0) AS n FROM billing_page_counts");

    // A schema made on one server, versioned on the other: the extractions' half of the jobs.
    const schema = (await (await call(one, "/v1/schemas", { name: "invoice" })).json()) as { id: string };
    const schemaId = schema.id;
    const version = await call(two, `/v1/schemas/${schemaId}/versions`, {
      jsonSchema: { type: "object", properties: { invoiceNumber: { type: ["string", "null"] } } },
    });
    expect(version.status).toBe(201);

    // 200 jobs, alternately submitted to each server, 20 at a time.
    type Submitted = { kind: "conversion" | "extraction"; id: string; marker: string; via: number };
    const submitted: Submitted[] = [];
    const owners = new Set<string>();
    let sampling = true;
    const sampler = (async () => {
      // Which workers hold conversion leases while the jobs run: both processes must appear.
      while (sampling) {
        const { rows } = await db.query<{ owner: string }>(
          // One conversion worker per process: two owners are two processes.
          "SELECT DISTINCT lease_owner AS owner FROM jobs WHERE kind = 'convert' AND status = 'running' AND lease_owner IS NOT NULL",
        );
        for (const row of rows) owners.add(row.owner);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    for (let batch = 0; batch < JOBS; batch += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, offset) => {
          const i = batch + offset;
          const via = i % 2;
          const server = via === 0 ? one : two;
          const marker = `M${String(i).padStart(3, "0")}`;
          if (i % 2 === 1) {
            const response = await call(server, "/v1/extractions/async", {
              schemaId,
              inputText: `Invoice INV-${i}\nDelivered to the quay.`,
              model: MODEL,
            });
            expect(response.status).toBe(202);
            const body = (await response.json()) as { id: string };
            submitted.push({ kind: "extraction", id: body.id, marker: `INV-${i}`, via });
          } else {
            const text = `Document ${marker}\nContainers stacked on the quay in Hamburg.\n`;
            const response = await call(server, "/v1/convert/source/async", {
              sources: [
                { kind: "base64", content: Buffer.from(text).toString("base64"), filename: `${marker}.txt` },
              ],
            });
            expect(response.status).toBe(202);
            const body = (await response.json()) as { taskId: string };
            submitted.push({ kind: "conversion", id: body.taskId, marker, via });
          }
        }),
      );
    }
    expect(submitted).toHaveLength(JOBS);
    await until(
      "every job to finish",
      async () => (await count("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')")) === 0,
    );
    sampling = false;
    await sampler;
    expect(await count("SELECT count(*) AS n FROM jobs WHERE status = 'succeeded'")).toBe(JOBS);
    // Both worker processes converted.
    expect(owners.size).toBeGreaterThanOrEqual(2);

    // Each result read from the server it was not submitted to; each effect counted once.
    const conversions = submitted.filter((each) => each.kind === "conversion");
    for (const each of submitted) {
      const other = each.via === 0 ? two : one;
      if (each.kind === "conversion") {
        const result = await call(other, `/v1/convert/tasks/${each.id}/result`);
        expect(result.status).toBe(200);
        const body = (await result.json()) as { documents: Array<{ textContent?: string }> };
        expect(body.documents).toHaveLength(1);
        expect(body.documents[0]?.textContent).toContain(`Document ${each.marker}`);
      } else {
        const done = (await (await call(other, `/v1/extractions/${each.id}`)).json()) as {
          status: string;
          result: { structuredOutput: { invoiceNumber: string } };
        };
        expect(done.status).toBe("COMPLETED");
        expect(done.result.structuredOutput.invoiceNumber).toBe(each.marker);
        const asked = upstream.requests.filter((request) =>
          userText(request).includes(`Invoice ${each.marker}\n`),
        );
        expect(asked).toHaveLength(1);
      }
    }
    // One page per text document, billed once per conversion.
    expect(await pagesBilled()).toBe(conversions.length);

    // Kill -9 mid-job: two conversions whose source holds them; each process converts one job at
    // a time, so once both requests are held each worker process is in the middle of one.
    const source = await startHoldingSource();
    try {
      const held = await Promise.all(
        ["/held-1", "/held-2"].map(async (path, i) => {
          const response = await call(i === 0 ? one : two, "/v1/convert/source/async", {
            sources: [{ kind: "http", url: `${source.origin}${path}` }],
          });
          expect(response.status).toBe(202);
          return ((await response.json()) as { taskId: string }).taskId;
        }),
      );
      await until("both held conversions to be mid-fetch", async () => source.held() === 2, 30_000);
      const victim = workers[0];
      if (victim === undefined) throw new Error("no worker to kill");
      const killed = new Promise((resolve) => victim.once("exit", resolve));
      victim.kill("SIGKILL");
      await killed;
      source.release();
      await until(
        "the killed worker's job to complete on the other",
        async () =>
          (await count("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')")) === 0,
        60_000,
      );
      for (const [i, taskId] of held.entries()) {
        const result = await call(i === 0 ? two : one, `/v1/convert/tasks/${taskId}/result`);
        expect(result.status).toBe(200);
        const body = (await result.json()) as { documents: Array<{ textContent?: string }> };
        expect(body.documents[0]?.textContent).toContain(`Held document /held-${i + 1}`);
      }
      // The killed worker's source was fetched again by the survivor; the other once.
      expect([source.hits("/held-1"), source.hits("/held-2")].sort()).toEqual([1, 2]);
      expect(await count("SELECT count(*) AS n FROM jobs WHERE status = 'succeeded'")).toBe(JOBS + 2);
      expect(await count("SELECT count(*) AS n FROM jobs WHERE attempts = 2")).toBe(1);
      // The killed worker billed nothing for its unfinished attempt.
      expect(await pagesBilled()).toBe(conversions.length + 2);
    } finally {
      await source.close();
    }
  }, 150_000);
});
