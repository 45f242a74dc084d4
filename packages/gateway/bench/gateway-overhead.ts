/**
 * Gateway overhead, side by side in one run (issue 5's benchmark):
 *   direct  — the client calls the loopback upstream itself;
 *   proxy   — a bare undici pass-through proxy in front of it (the floor for any proxy);
 *   gateway — the Groundwork server (auth, validation, routing, SDK adapter, usage metering).
 * p50/p99 latency at concurrency 1 and 10, non-streaming and time-to-first-byte streaming,
 * and requests per second. Run from the repository root:
 *   node --import tsx packages/gateway/bench/gateway-overhead.ts [requestsPerCase]
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp, listen } from "@groundwork/server";
import { openStore } from "@groundwork/store-sqlite";
import { Agent, request } from "undici";
import { createFastFetch } from "../src/fast-fetch.js";
import { Gateway } from "../src/gateway.js";

const REQUESTS = Number(process.argv[2] ?? 4000);

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
const streamBody = `${chunk({ role: "assistant", content: "po" }, null)}${chunk({ content: "ng" }, null)}${chunk({}, "stop")}data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "bench-model", choices: [], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } })}\n\ndata: [DONE]\n\n`;

function upstreamHandler(req: IncomingMessage, res: ServerResponse): void {
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
}

function listenOn(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function startProxy(target: string): Server {
  const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 30_000 });
  return createServer((req, res) => {
    request(`${target}${req.url}`, {
      method: req.method as "POST",
      headers: req.headers as Record<string, string>,
      body: req,
      dispatcher,
    }).then(
      (upstream) => {
        res.writeHead(upstream.statusCode, upstream.headers as Record<string, string>);
        upstream.body.pipe(res);
      },
      () => {
        res.writeHead(502).end();
      },
    );
  });
}

interface Result {
  p50: number;
  p99: number;
  rps: number;
}

const client = new Agent({ connections: 64, keepAliveTimeout: 30_000 });

async function run(url: string, key: string, concurrency: number, stream: boolean): Promise<Result> {
  const body = JSON.stringify({
    model: "bench-model",
    messages: [{ role: "user", content: "ping" }],
    stream,
  });
  const latencies: number[] = [];
  let issued = 0;
  const one = async () => {
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
      // Time to first byte of the body, then drain.
      for await (const _ of response.body) {
        latencies.push(performance.now() - started);
        break;
      }
      await response.body.dump();
    } else {
      await response.body.text();
      latencies.push(performance.now() - started);
    }
  };
  const worker = async () => {
    while (issued < REQUESTS) {
      issued++;
      await one();
    }
  };
  // Warm-up: connections, JIT.
  for (let i = 0; i < 200; i++) await one();
  latencies.length = 0;
  issued = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), rps: latencies.length / seconds };
}

const upstream = createServer(upstreamHandler);
const upstreamUrl = await listenOn(upstream);
const proxy = startProxy(upstreamUrl);
const proxyUrl = await listenOn(proxy);

const store = openStore({ file: ":memory:", secret: "bench-secret-0123456789" });
const org = store.organizations.create("bench", "enterprise");
const { key } = store.apiKeys.create({ organizationId: org.id, role: "member" });
const gateway = new Gateway({
  builtin: { baseUrl: `${upstreamUrl}/v1`, apiKey: "upstream-key" },
  fetch: createFastFetch(),
  providers: { find: () => null, list: () => [] },
  usage: { record: (event) => void store.usage.record(event), chargedSince: () => 0 },
});
const server = await listen(createApp({ store, gateway, builtinConfigured: true }), {
  host: "127.0.0.1",
  port: 0,
});

const targets = [
  ["direct", `${upstreamUrl}`],
  ["undici proxy", proxyUrl],
  ["gateway", server.url],
] as const;

console.log(`node ${process.version}, ${REQUESTS} requests per case\n`);
console.log("case                         | concurrency | p50 ms | p99 ms |  req/s");
console.log("-----------------------------|-------------|--------|--------|-------");
const results: Record<string, Result> = {};
for (const stream of [false, true]) {
  for (const concurrency of [1, 10]) {
    for (const [name, url] of targets) {
      const result = await run(url, key, concurrency, stream);
      const label = `${name} ${stream ? "stream TTFB" : "JSON"}`;
      results[`${label} c${concurrency}`] = result;
      console.log(
        `${label.padEnd(28)} | ${String(concurrency).padStart(11)} | ${result.p50.toFixed(3).padStart(6)} | ${result.p99.toFixed(3).padStart(6)} | ${result.rps.toFixed(0).padStart(6)}`,
      );
    }
  }
}
const added = (results["gateway JSON c1"]?.p50 ?? 0) - (results["direct JSON c1"]?.p50 ?? 0);
console.log(`\ngateway added p50 latency at concurrency 1 (JSON): ${added.toFixed(3)} ms`);

await server.close(1000);
store.close();
proxy.close();
upstream.close();
await client.close();
