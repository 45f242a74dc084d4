/**
 * Gateway overhead, side by side in one run (issue 5's benchmark):
 *   direct  — the client calls the loopback upstream itself;
 *   proxy   — a bare undici pass-through proxy in front of it (the floor for any proxy);
 *   gateway — the Groundwork server (auth, validation, routing, SDK adapter, usage metering).
 * The upstream, the proxy and the gateway each run in their own process, like in production, and
 * the load generator in this one. p50/p99 latency at concurrency 1 and 10, non-streaming and
 * time-to-first-byte streaming, and requests per second. Run from the repository root:
 *   node --import tsx packages/server/bench/gateway-overhead.ts [requestsPerCase]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFastFetch, Gateway } from "@groundwork/gateway";
import { openStore } from "@groundwork/store-sqlite";
import { Agent, request } from "undici";
import { createApp } from "../src/app.js";
import { listen } from "../src/http-server.js";

const [role, target] = process.argv.slice(2);

// ---- roles run in child processes ----

const completion = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1,
  model: "bench-model",
  choices: [{ index: 0, message: { role: "assistant", content: "pong" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});
const chunk = (delta: object, finish: string | null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "bench-model", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usageChunk = `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "bench-model", choices: [], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } })}\n\n`;
const streamBody = `${chunk({ role: "assistant", content: "po" }, null)}${chunk({ content: "ng" }, null)}${chunk({}, "stop")}${usageChunk}data: [DONE]\n\n`;

function announce(port: number): void {
  process.stdout.write(`READY http://127.0.0.1:${port}\n`);
}

function runUpstream(): void {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (part: string) => {
      body += part;
    });
    req.on("end", () => {
      if (body.includes('"stream":true')) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(streamBody);
      } else {
        res.writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(completion),
        });
        res.end(completion);
      }
    });
  });
  server.listen(0, "127.0.0.1", () => announce((server.address() as AddressInfo).port));
}

function runProxy(upstream: string): void {
  const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 30_000 });
  const server = createServer((req, res) => {
    request(`${upstream}${req.url}`, {
      method: req.method as "POST",
      headers: req.headers as Record<string, string>,
      body: req,
      dispatcher,
    }).then(
      (answer) => {
        res.writeHead(answer.statusCode, answer.headers as Record<string, string>);
        answer.body.pipe(res);
      },
      () => res.writeHead(502).end(),
    );
  });
  server.listen(0, "127.0.0.1", () => announce((server.address() as AddressInfo).port));
}

async function runGateway(upstream: string): Promise<void> {
  // A file database in WAL mode, as the server runs, so usage metering pays its real cost.
  const directory = mkdtempSync(join(tmpdir(), "groundwork-bench-"));
  const store = openStore({ file: join(directory, "bench.db"), secret: "bench-secret-0123456789" });
  const org = store.organizations.create("bench", "enterprise");
  const { key } = store.apiKeys.create({ organizationId: org.id, role: "member" });
  const gateway = new Gateway({
    builtin: { baseUrl: `${upstream}/v1`, apiKey: "upstream-key" },
    fetch: createFastFetch(),
    providers: { find: () => null, list: () => [] },
    usage: { record: (event) => void store.usage.record(event), chargedSince: () => 0 },
  });
  const server = await listen(createApp({ store, gateway, builtinConfigured: true }), {
    host: "127.0.0.1",
    port: 0,
  });
  process.stdout.write(`KEY ${key}\n`);
  // A clean exit on SIGINT lets `node --cpu-prof` write its profile when profiling this role alone.
  process.once("SIGINT", () => process.exit(0));
  process.once("exit", () => rmSync(directory, { recursive: true, force: true }));
  announce(server.port);
}

// ---- the load generator ----

interface Result {
  p50: number;
  p99: number;
  rps: number;
  /** CPU time the serving process spent per request (Linux), steadier than latency on a shared VM. */
  cpuMicros: number | null;
}

/** User + system CPU of a process in microseconds, from /proc (null where there is none). */
function processCpuMicros(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name; in clock ticks (100/s).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

function startRole(
  name: string,
  arg?: string,
): Promise<{ url: string; key: string | null; child: ChildProcess }> {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(
    process.execPath,
    ["--import", "tsx", script, name, ...(arg === undefined ? [] : [arg])],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout?.setEncoding("utf8").on("data", (part: string) => {
      output += part;
      const ready = /READY (\S+)/.exec(output);
      if (ready?.[1] !== undefined)
        resolve({ url: ready[1], key: /KEY (\S+)/.exec(output)?.[1] ?? null, child });
    });
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

const client = new Agent({ connections: 64, keepAliveTimeout: 30_000 });

async function measure(
  url: string,
  key: string,
  concurrency: number,
  stream: boolean,
  total: number,
  pid: number | undefined,
): Promise<Result> {
  const body = JSON.stringify({
    model: "bench-model",
    messages: [{ role: "user", content: "ping" }],
    stream,
  });
  const latencies: number[] = [];
  const one = async (record: boolean) => {
    const started = performance.now();
    const response = await request(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
      dispatcher: client,
    });
    if (response.statusCode !== 200)
      throw new Error(`status ${response.statusCode}: ${await response.body.text()}`);
    if (stream) {
      for await (const _ of response.body) {
        if (record) latencies.push(performance.now() - started); // time to first byte of the body
        break;
      }
      await response.body.dump();
    } else {
      await response.body.text();
      if (record) latencies.push(performance.now() - started);
    }
  };
  for (let i = 0; i < 300; i++) await one(false); // connections, JIT
  let issued = 0;
  const worker = async () => {
    while (issued < total) {
      issued++;
      await one(true);
    }
  };
  const cpuBefore = processCpuMicros(pid);
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = processCpuMicros(pid);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    p50: at(0.5),
    p99: at(0.99),
    rps: latencies.length / seconds,
    cpuMicros: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / latencies.length,
  };
}

async function main(): Promise<void> {
  const total = Number(role ?? 4000);
  const upstream = await startRole("upstream");
  const proxy = await startRole("proxy", upstream.url);
  const gateway = await startRole("gateway", upstream.url);
  const targets = [
    ["direct", upstream.url, upstream.child],
    ["undici proxy", proxy.url, proxy.child],
    ["gateway", gateway.url, gateway.child],
  ] as const;
  console.log(
    `node ${process.version}, ${total} requests per case, load average ${loadavg()[0]?.toFixed(2)}\n`,
  );
  console.log("case                       | conc. | p50 ms | p99 ms |  req/s | server CPU µs/req");
  console.log("---------------------------|-------|--------|--------|--------|------------------");
  const results = new Map<string, Result>();
  for (const stream of [false, true]) {
    for (const concurrency of [1, 10]) {
      for (const [name, url, child] of targets) {
        const result = await measure(url, gateway.key ?? "", concurrency, stream, total, child.pid);
        const label = `${name} ${stream ? "stream TTFB" : "JSON"}`;
        results.set(`${label} c${concurrency}`, result);
        console.log(
          `${label.padEnd(26)} | ${String(concurrency).padStart(5)} | ${result.p50.toFixed(3).padStart(6)} | ${result.p99.toFixed(3).padStart(6)} | ${result.rps.toFixed(0).padStart(6)} | ${result.cpuMicros === null ? "n/a" : result.cpuMicros.toFixed(0).padStart(6)}`,
        );
      }
    }
  }
  const added = (results.get("gateway JSON c1")?.p50 ?? 0) - (results.get("direct JSON c1")?.p50 ?? 0);
  console.log(`\ngateway added p50 latency at concurrency 1 (JSON): ${added.toFixed(3)} ms`);
  for (const role of [upstream, proxy, gateway]) role.child.kill("SIGINT");
  await client.close();
}

if (role === "upstream") runUpstream();
else if (role === "proxy" && target !== undefined) runProxy(target);
else if (role === "gateway" && target !== undefined) await runGateway(target);
else await main();
