/**
 * What tracing adds to a gateway call (target < 30 µs CPU per call): the same chat call through
 * two composed platforms in one run, one organization with tracing on (every call sampled,
 * its span built, filtered, batched and written to SQLite) and one with tracing off
 * (`enabled: false`: a non-recording span). CPU is `process.cpuUsage()` over interleaved
 * blocks of calls — the upstream stand-in runs in this process too, the same for both — and
 * includes the batched trace writes, which run on timers after the calls.
 * Run: npx vitest bench --run --project platform tracing (after a build).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { UNLIMITED_ALLOWANCE } from "@groundwork/core";
import { GatewayTracing } from "@groundwork/gateway";
import { openStore } from "@groundwork/store-sqlite";
import { afterAll, bench, describe } from "vitest";
import { createGroundwork } from "../src/create-groundwork.js";

const completion = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1,
  model: "bench-model",
  choices: [{ index: 0, message: { role: "assistant", content: "pong" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});
const upstream = createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end(completion));
});
await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;

async function platform(tracing: boolean) {
  const groundwork = createGroundwork({
    store: openStore({ file: ":memory:" }),
    allowance: UNLIMITED_ALLOWANCE,
    config: { builtin: { baseUrl, apiKey: "bench" } },
  });
  const principal = await groundwork.principal("bench");
  await groundwork.tracing.updateSettings(principal, { enabled: tracing });
  const call = () =>
    groundwork.gateway.chat(
      { model: "bench-model", messages: [{ role: "user", content: "ping" }] } as never,
      { principal },
    );
  return { groundwork, call };
}

const on = await platform(true);
const off = await platform(false);

/** CPU µs per call over `rounds` interleaved blocks of `calls` (warm-up first). */
async function cpuPerCall(rounds = 6, calls = 300) {
  const spent = { on: 0, off: 0 };
  for (let round = -1; round < rounds; round++) {
    for (const [name, target] of [
      ["off", off],
      ["on", on],
    ] as const) {
      const before = process.cpuUsage();
      for (let i = 0; i < calls; i++) await target.call();
      await target.groundwork.tracing.flush(); // the batched writes are part of the cost
      const used = process.cpuUsage(before);
      if (round >= 0) spent[name] += used.user + used.system;
    }
  }
  const perCall = (total: number) => total / (rounds * calls);
  return { on: perCall(spent.on), off: perCall(spent.off) };
}

const cpu = await cpuPerCall();
const stored = (
  await on.groundwork.tracing.listTraces(await on.groundwork.principal("bench"), {}, { page: 0, size: 1 })
).total;
console.log(
  `CPU per gateway call: tracing off ${cpu.off.toFixed(1)} µs, on ${cpu.on.toFixed(1)} µs, ` +
    `added ${(cpu.on - cpu.off).toFixed(1)} µs (${(cpu.on / cpu.off).toFixed(3)}×); ${stored} traces stored`,
);

/**
 * The tracing work of one call alone, without the HTTP round trip whose noise on a shared
 * machine is larger than the signal: the gateway's own span calls (start, routed request,
 * finish with usage) and the batched SQLite write, on vs off, interleaved in one run.
 */
async function spanCpuPerCall(rounds = 6, calls = 5000) {
  const org = async (target: typeof on) => (await target.groundwork.principal("bench")).organizationId;
  const messages = [{ role: "user" as const, content: "ping" }];
  const route = { kind: "builtin" as const, model: "bench-model" };
  const spent = { on: 0, off: 0 };
  for (let round = -1; round < rounds; round++) {
    for (const [name, target] of [
      ["off", off],
      ["on", on],
    ] as const) {
      const tracing = new GatewayTracing(target.groundwork.tracing.hooks);
      const organizationId = await org(target);
      const before = process.cpuUsage();
      for (let i = 0; i < calls; i++) {
        const span = tracing.start("chat", "bench-model", organizationId);
        tracing.request(span, route, organizationId, messages);
        tracing.finish(span, organizationId, { inputTokens: 3, outputTokens: 1, costEur: 0 });
      }
      await target.groundwork.tracing.flush();
      const used = process.cpuUsage(before);
      if (round >= 0) spent[name] += used.user + used.system;
    }
  }
  return { on: spent.on / (rounds * calls), off: spent.off / (rounds * calls) };
}

const spans = await spanCpuPerCall();
console.log(
  `CPU of the tracing work per call: off ${spans.off.toFixed(2)} µs, on ${spans.on.toFixed(2)} µs ` +
    `(span, attributes, filter, batch and SQLite write), added ${(spans.on - spans.off).toFixed(2)} µs`,
);

describe("gateway chat call (loopback upstream)", () => {
  bench("tracing off (enabled: false)", async () => {
    await off.call();
  });
  bench("tracing on (sampled, stored)", async () => {
    await on.call();
  });
});

afterAll(async () => {
  await Promise.all([on.groundwork.close(), off.groundwork.close()]);
  await new Promise((resolve) => upstream.close(resolve));
});
