/**
 * Gateway overhead against a bare proxy, measured in one run (issues 5 and 25):
 *   direct  — the client calls the loopback upstream itself;
 *   proxy   — a bare undici pass-through proxy in front of it (the floor for any proxy);
 *   gateway — the whole Groundwork server as `groundwork serve` starts it (serveGroundwork: the
 *             platform, plan allowance, key auth, rate limit, body validation, the SDK adapter,
 *             usage written to a WAL database, the access log), calling the built-in model: the
 *             built server (`dist`, so `pnpm build` first) in plain Node (gateway-role.mjs);
 *             GATEWAY_BENCH_FROM=src runs its sources under tsx (for profiles naming them).
 * The upstream, the proxy and the gateway each run in their own process, like in production, and
 * the load generator in this one. Cases are interleaved (direct, proxy, gateway, proxy, gateway, …
 * for several rounds) and every figure is a median over rounds of a ratio taken within one round,
 * so a neighbour's load on a shared machine moves both sides of a ratio alike. CPU per request is
 * read from /proc/<pid>/stat of the serving process (user + system). Run from the repository root:
 *   node --import tsx packages/server/bench/gateway-overhead.ts [requestsPerCase] [rounds]
 * With GATEWAY_BENCH_PROFILE=<dir> the gateway process writes a `--cpu-prof` profile to <dir>/gateway
 * (GATEWAY_BENCH_PROFILE_ROLES=gateway,proxy profiles the bare proxy too, into <dir>/proxy), and
 * GATEWAY_BENCH_CASES=json10 (or json1, stream1, stream10, comma-separated) runs only those cases. Tracing is
 * on as PLATFORM.md §13 defaults it (every call is a trace); GATEWAY_BENCH_TRACING=off turns it off
 * for the organization first (`PUT /v1/tracing/settings`), to see the gateway's own share.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";

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
  // A clean exit on SIGINT lets `node --cpu-prof` write its profile.
  process.once("SIGINT", () => process.exit(0));
  server.listen(0, "127.0.0.1", () => announce((server.address() as AddressInfo).port));
}

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

interface Started {
  url: string;
  key: string | null;
  child: ChildProcess;
}

/**
 * Starts a role in its own process. `checkout` runs it from another copy of the repository (the
 * baseline gateway: the same bench file there, with that copy's sources through its tsconfig).
 */
function startRole(name: string, arg?: string, checkout?: string): Promise<Started> {
  const bench = join(
    checkout ?? fileURLToPath(new URL("../../..", import.meta.url)),
    "packages/server/bench",
  );
  // The gateway runs as `groundwork serve` does (gateway-role.mjs); the other roles are in this file.
  const gatewayRole = join(bench, "gateway-role.mjs");
  const script =
    name === "gateway" && existsSync(gatewayRole) ? gatewayRole : join(bench, "gateway-overhead.ts");
  const typescript = !script.endsWith(".mjs") || process.env.GATEWAY_BENCH_FROM === "src";
  const roleArgs = script === gatewayRole ? [] : [name];
  const profileDir = process.env.GATEWAY_BENCH_PROFILE;
  const label = checkout === undefined ? name : "baseline";
  // GATEWAY_BENCH_PROFILE_ROLES (default `gateway`) names the processes to profile, e.g. `gateway,proxy`.
  const profiled = (process.env.GATEWAY_BENCH_PROFILE_ROLES ?? "gateway").split(",").includes(label);
  const profile = profiled && profileDir ? ["--cpu-prof", `--cpu-prof-dir=${join(profileDir, label)}`] : [];
  const child = spawn(
    process.execPath,
    [
      ...profile,
      ...(typescript ? ["--import", "tsx"] : []),
      script,
      ...roleArgs,
      ...(arg === undefined ? [] : [arg]),
    ],
    // The gateway's access log (a line per request on stderr) is written and dropped, as a log shipper would.
    {
      stdio: ["ignore", "pipe", name === "gateway" ? "ignore" : "inherit"],
      ...(checkout === undefined ? {} : { cwd: checkout }),
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

/** What one case gathers over its rounds for one gateway (this checkout's, or the baseline's). */
class Series {
  readonly throughput: number[] = [];
  readonly cpu: number[] = [];
  readonly ownCpu: number[] = [];
  readonly proxyCpu: number[] = [];
  readonly added: number[] = [];
  readonly addedProxy: number[] = [];
  readonly p99: number[] = [];
  readonly proxyP99: number[] = [];

  add(own: Result, proxy: Result, direct: Result): void {
    this.throughput.push(own.rps / proxy.rps);
    if (own.cpuMicros !== null && proxy.cpuMicros !== null) {
      this.cpu.push(own.cpuMicros / proxy.cpuMicros);
      this.ownCpu.push(own.cpuMicros);
      this.proxyCpu.push(proxy.cpuMicros);
    }
    this.added.push(own.p50 - direct.p50);
    this.addedProxy.push(proxy.p50 - direct.p50);
    this.p99.push(own.p99);
    this.proxyP99.push(proxy.p99);
  }

  row(label: string, concurrency: number, rounds: number): string {
    return `${label.padEnd(24)} | ${String(concurrency).padStart(5)} | ${String(rounds).padStart(6)} | ${fixed(median(this.throughput), 2, 19)} | ${fixed(this.cpu.length === 0 ? null : median(this.cpu), 2, 17)} | ${`${fixed(median(this.ownCpu), 0, 6)}, ${fixed(median(this.proxyCpu), 0, 6)}`.padStart(25)} | ${`${fixed(median(this.added), 3, 6)} (${fixed(median(this.addedProxy), 3, 6)})`.padStart(32)} | ${`${fixed(median(this.p99), 2, 6)}, ${fixed(median(this.proxyP99), 2, 6)}`.padStart(21)}`;
  }
}

async function turnTracingOff(gateway: Started): Promise<void> {
  const answer = await request(`${gateway.url}/v1/tracing/settings`, {
    method: "PUT",
    headers: { authorization: `Bearer ${gateway.key ?? ""}`, "content-type": "application/json" },
    body: JSON.stringify({ enabled: false }),
  });
  if (answer.statusCode !== 200) throw new Error(`tracing settings: ${await answer.body.text()}`);
  await answer.body.dump();
}

async function main(): Promise<void> {
  const total = Number(role ?? 3000);
  const rounds = Number(target ?? 5);
  const upstream = await startRole("upstream");
  const proxy = await startRole("proxy", upstream.url);
  const gateway = await startRole("gateway", upstream.url);
  // GATEWAY_BENCH_BASELINE=<another checkout> also measures that checkout's gateway in the same rounds
  // (e.g. the commit before a change, unpacked with `git archive`), for a before/after in one run.
  const baselineDir = process.env.GATEWAY_BENCH_BASELINE;
  const baseline = baselineDir === undefined ? null : await startRole("gateway", upstream.url, baselineDir);
  const gateways = baseline === null ? [gateway] : [gateway, baseline];
  const tracing = process.env.GATEWAY_BENCH_TRACING === "off" ? "off" : "on (the default)";
  if (tracing === "off") for (const started of gateways) await turnTracingOff(started);
  const load = [loadavg()[0]];
  console.log(
    `node ${process.version}, ${total} requests per case, ${rounds} interleaved rounds, tracing ${tracing}, load average at start ${load[0]?.toFixed(2)}${baseline === null ? "" : `\nbaseline: the gateway of ${baselineDir}, measured in the same rounds`}\n`,
  );
  console.log(
    "case                     | conc. | rounds | gateway/proxy req/s | gateway/proxy CPU | gateway, proxy CPU µs/req | added p50 ms vs direct (proxy's) | gateway, proxy p99 ms",
  );
  console.log(
    "-------------------------|-------|--------|---------------------|-------------------|---------------------------|----------------------------------|----------------------",
  );
  // GATEWAY_BENCH_CASES picks cases (e.g. `json10,stream10` to profile one load); all four by default.
  const cases = process.env.GATEWAY_BENCH_CASES?.split(",");
  const summary: string[] = [];
  for (const stream of [false, true]) {
    for (const concurrency of [1, 10]) {
      if (cases !== undefined && !cases.includes(`${stream ? "stream" : "json"}${concurrency}`)) continue;
      const series = gateways.map(() => new Series());
      const versus: number[] = [];
      const versusCpu: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const direct = await measure(upstream.url, "", concurrency, stream, total, upstream.child.pid);
        // Rotate the order of the targets each round, so a drift in the machine's load favours none.
        const targets = [proxy, ...gateways];
        const order = targets.map((_, i) => targets[(i + round) % targets.length] as Started);
        const results = new Map<Started, Result>();
        for (const started of order) {
          results.set(
            started,
            await measure(started.url, started.key ?? "", concurrency, stream, total, started.child.pid),
          );
        }
        const p = results.get(proxy) as Result;
        gateways.forEach((started, i) => {
          series[i]?.add(results.get(started) as Result, p, direct);
        });
        if (baseline !== null) {
          const g = results.get(gateway) as Result;
          const b = results.get(baseline) as Result;
          versus.push(g.rps / b.rps);
          if (g.cpuMicros !== null && b.cpuMicros !== null) versusCpu.push(g.cpuMicros / b.cpuMicros);
        }
      }
      load.push(loadavg()[0]);
      const label = stream ? "stream (TTFB)" : "JSON";
      console.log(series[0]?.row(label, concurrency, rounds));
      if (baseline !== null) {
        console.log(series[1]?.row(`${label}, baseline`, concurrency, rounds));
        summary.push(
          `${label} c${concurrency}: ${fixed(median(versus), 2, 0)}× the baseline's req/s, ${fixed(versusCpu.length === 0 ? null : median(versusCpu), 2, 0)}× its CPU per request`,
        );
      }
    }
  }
  if (summary.length > 0)
    console.log(
      `\nthis gateway against the baseline, same rounds (medians of ratios):\n${summary.join("\n")}`,
    );
  console.log(
    `\nload average after each case: ${load.map((l) => l?.toFixed(2)).join(", ")} (2 is a full 2-core machine)`,
  );
  for (const started of [upstream, proxy, ...gateways]) started.child.kill("SIGINT");
  await client.close();
}

if (role === "upstream") runUpstream();
else if (role === "proxy" && target !== undefined) runProxy(target);
else await main();
