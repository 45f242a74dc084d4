/**
 * Gateway overhead against a bare proxy, measured in one run (issues 5 and 25):
 *   direct  — the client calls the loopback upstream itself;
 *   proxy   — a bare undici pass-through proxy in front of it (the floor for any proxy);
 *   gateway — the whole Groundwork server as `groundwork serve` starts it (serveGroundwork: the
 *             platform, plan allowance, key auth, rate limit, body validation, the SDK adapter,
 *             usage written to a WAL database, the access log), calling the built-in model.
 * The upstream, the proxy and the gateway each run in their own process, like in production, and
 * the load generator in this one. Cases are interleaved (direct, proxy, gateway, proxy, gateway, …
 * for several rounds) and every figure is a median over rounds of a ratio taken within one round,
 * so a neighbour's load on a shared machine moves both sides of a ratio alike. CPU per request is
 * read from /proc/<pid>/stat of the serving process (user + system). Run from the repository root:
 *   node --import tsx packages/server/bench/gateway-overhead.ts [requestsPerCase] [rounds]
 * With GATEWAY_BENCH_PROFILE=<dir> the gateway process writes a `--cpu-prof` profile there. Tracing is
 * on as PLATFORM.md §13 defaults it (every call is a trace); GATEWAY_BENCH_TRACING=off turns it off
 * for the organization first (`PUT /v1/tracing/settings`), to see the gateway's own share.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { loadConfig } from "../src/config.js";
import { serveGroundwork } from "../src/serve.js";

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
  // The server as `groundwork serve` runs it: a file database in WAL mode (usage metering pays its
  // real cost), the first-start enterprise organization and its admin key, the access log at info.
  const directory = mkdtempSync(join(tmpdir(), "groundwork-bench-"));
  const config = loadConfig(
    { dataDir: directory, host: "127.0.0.1", port: "0" },
    {
      GROUNDWORK_BUILTIN_BASE_URL: `${upstream}/v1`,
      GROUNDWORK_BUILTIN_API_KEY: "upstream-key",
      GROUNDWORK_SECRET: "bench-secret-0123456789",
    },
  );
  const server = await serveGroundwork(config);
  process.stdout.write(`KEY ${server.bootstrap?.key ?? ""}\n`);
  // A clean exit on SIGINT lets `node --cpu-prof` write its profile.
  process.once("SIGINT", () => {
    void server.close().finally(() => process.exit(0));
  });
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
  const profileDir = process.env.GATEWAY_BENCH_PROFILE;
  const profile = name === "gateway" && profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(
    process.execPath,
    [...profile, "--import", "tsx", script, name, ...(arg === undefined ? [] : [arg])],
    // The gateway's access log (a line per request on stderr) is written and dropped, as a log shipper would.
    { stdio: ["ignore", "pipe", name === "gateway" ? "ignore" : "inherit"] },
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
    const send = () =>
      request(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
        dispatcher: client,
      });
    // A kept-alive socket the server closed while another target was measured fails at once; once more.
    const response = await send().catch((error: unknown) => {
      const code = (error as { code?: string }).code;
      if (code !== "UND_ERR_SOCKET" && code !== "ECONNRESET") throw error;
      return send();
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
  const warmup = async () => {
    for (let i = 0; i < 20; i++) await one(false);
  };
  await Promise.all(Array.from({ length: concurrency }, warmup)); // connections, JIT
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

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const fixed = (value: number | null, digits: number, width: number) =>
  (value === null ? "n/a" : value.toFixed(digits)).padStart(width);

async function main(): Promise<void> {
  const total = Number(role ?? 3000);
  const rounds = Number(target ?? 5);
  const upstream = await startRole("upstream");
  const proxy = await startRole("proxy", upstream.url);
  const gateway = await startRole("gateway", upstream.url);
  const key = gateway.key ?? "";
  const tracing = process.env.GATEWAY_BENCH_TRACING === "off" ? "off" : "on (the default)";
  if (tracing === "off") {
    const answer = await request(`${gateway.url}/v1/tracing/settings`, {
      method: "PUT",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ enabled: false }),
    });
    if (answer.statusCode !== 200) throw new Error(`tracing settings: ${await answer.body.text()}`);
    await answer.body.dump();
  }
  const load = [loadavg()[0]];
  console.log(
    `node ${process.version}, ${total} requests per case, ${rounds} interleaved rounds, tracing ${tracing}, load average at start ${load[0]?.toFixed(2)}\n`,
  );
  console.log(
    "case           | conc. | rounds | gateway/proxy req/s | gateway/proxy CPU | gateway, proxy CPU µs/req | added p50 ms vs direct (proxy's) | gateway, proxy p99 ms",
  );
  console.log(
    "---------------|-------|--------|---------------------|-------------------|---------------------------|----------------------------------|----------------------",
  );
  for (const stream of [false, true]) {
    for (const concurrency of [1, 10]) {
      const throughput: number[] = [];
      const cpu: number[] = [];
      const gatewayCpu: number[] = [];
      const proxyCpu: number[] = [];
      const addedGateway: number[] = [];
      const addedProxy: number[] = [];
      const gatewayP99: number[] = [];
      const proxyP99: number[] = [];
      for (let round = 0; round < rounds; round++) {
        // Alternate which side goes first, so a drift in the machine's load favours neither.
        const direct = await measure(upstream.url, key, concurrency, stream, total, upstream.child.pid);
        const first = round % 2 === 0;
        const a = await measure(
          first ? proxy.url : gateway.url,
          key,
          concurrency,
          stream,
          total,
          (first ? proxy : gateway).child.pid,
        );
        const b = await measure(
          first ? gateway.url : proxy.url,
          key,
          concurrency,
          stream,
          total,
          (first ? gateway : proxy).child.pid,
        );
        const [p, g] = first ? [a, b] : [b, a];
        throughput.push(g.rps / p.rps);
        if (g.cpuMicros !== null && p.cpuMicros !== null) {
          cpu.push(g.cpuMicros / p.cpuMicros);
          gatewayCpu.push(g.cpuMicros);
          proxyCpu.push(p.cpuMicros);
        }
        addedGateway.push(g.p50 - direct.p50);
        addedProxy.push(p.p50 - direct.p50);
        gatewayP99.push(g.p99);
        proxyP99.push(p.p99);
      }
      load.push(loadavg()[0]);
      const label = stream ? "stream (TTFB)" : "JSON";
      console.log(
        `${label.padEnd(14)} | ${String(concurrency).padStart(5)} | ${String(rounds).padStart(6)} | ${fixed(median(throughput), 2, 19)} | ${fixed(cpu.length === 0 ? null : median(cpu), 2, 17)} | ${`${fixed(median(gatewayCpu), 0, 6)}, ${fixed(median(proxyCpu), 0, 6)}`.padStart(25)} | ${`${fixed(median(addedGateway), 3, 6)} (${fixed(median(addedProxy), 3, 6)})`.padStart(32)} | ${`${fixed(median(gatewayP99), 2, 6)}, ${fixed(median(proxyP99), 2, 6)}`.padStart(21)}`,
      );
    }
  }
  console.log(
    `\nload average after each case: ${load.map((l) => l?.toFixed(2)).join(", ")} (2 is a full 2-core machine)`,
  );
  for (const started of [upstream, proxy, gateway]) started.child.kill("SIGINT");
  await client.close();
}

if (role === "upstream") runUpstream();
else if (role === "proxy" && target !== undefined) runProxy(target);
else if (role === "gateway" && target !== undefined) await runGateway(target);
else await main();
