/**
 * Profiles span location (not a test, not a bench): runs groundOutput with spans on the bench fixture
 * RUNS times and prints per-run wall time, CPU time, the share of time spent in garbage collection and
 * the number of collections. Run it under the CPU profiler to see where the time goes:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/spans-prof --import tsx packages/scoring/bench/profile-spans.ts
 *
 * (`--without-spans` profiles the baseline, grounding without span location.)
 */
import { PerformanceObserver, performance } from "node:perf_hooks";
import { groundOutput } from "../src/index.js";
import { buildBenchFixture } from "./bench-fixture.js";

const RUNS = 50;
const WARMUP = 10;
const withoutSpans = process.argv.includes("--without-spans");

const fixture = buildBenchFixture();
const input = {
  jsonSchema: fixture.jsonSchema,
  output: fixture.output,
  texts: [fixture.inputText],
  ...(withoutSpans ? { spanText: null } : {}),
};

let gcCount = 0;
let gcTime = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcCount++;
    gcTime += entry.duration;
  }
});

for (let run = 0; run < WARMUP; run++) groundOutput(input);
observer.observe({ entryTypes: ["gc"] });
const wall: number[] = [];
const cpu: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const cpuBefore = process.cpuUsage();
  const before = performance.now();
  groundOutput(input);
  wall.push(performance.now() - before);
  const used = process.cpuUsage(cpuBefore);
  cpu.push((used.user + used.system) / 1000);
}
// GC entries are delivered asynchronously: wait a tick before reading the totals.
setTimeout(() => {
  observer.disconnect();
  const total = wall.reduce((sum, ms) => sum + ms, 0);
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const summary = (values: number[]) => {
    const ordered = sorted(values);
    return `mean ${(values.reduce((s, v) => s + v, 0) / values.length).toFixed(1)} ms, min ${ordered[0]!.toFixed(1)}, median ${ordered[ordered.length >> 1]!.toFixed(1)}`;
  };
  console.log(
    `groundOutput ${withoutSpans ? "without" : "with"} spans, ${RUNS} runs after ${WARMUP} warm-up`,
  );
  console.log(`  wall: ${summary(wall)}`);
  console.log(`  cpu:  ${summary(cpu)}`);
  console.log(
    `  gc:   ${gcCount} collections, ${gcTime.toFixed(1)} ms = ${((gcTime / total) * 100).toFixed(1)} % of wall time`,
  );
}, 50);
