/**
 * Profiles span location (not a test, not a bench): runs, on the bench fixture, groundOutput with
 * spans, groundOutput without span location (the baseline), and locateSpans alone with the current and
 * the previous locator (test/previous-locator), in interleaved blocks so that a load that comes and
 * goes weighs on all of them alike. Per case it prints wall time, the process's CPU time (user +
 * system: less inflated than wall time on a shared machine), the garbage collector's time and share,
 * and the number of collections, and then the ratios of the CPU means to the baseline. Run it under
 * the CPU profiler to see where the time goes:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/spans-prof --import tsx packages/scoring/bench/profile-spans.ts
 *
 * `--only=<case>` (with, without, locate, previous) runs one case, for a profile of that case alone;
 * `--runs=<n>` sets the runs per case (default 60).
 */
import { PerformanceObserver, performance } from "node:perf_hooks";
import { groundOutput, locateSpans, type SpanRequest } from "../src/index.js";
import { locateSpans as previousLocateSpans } from "../test/previous-locator/locate-spans.js";
import { buildBenchFixture } from "./bench-fixture.js";

const option = (name: string) =>
  process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = Number(option("runs") ?? 60);
const WARMUP = 10;
// Runs per block: each case gets a block in turn until it has RUNS runs.
const BLOCK = 10;

const fixture = buildBenchFixture();
const spanRequests: SpanRequest[] = fixture.output.items.flatMap((item) =>
  Object.entries(item).flatMap(([name, value]) =>
    typeof value === "string" || typeof value === "number"
      ? [{ value, series: `items.${name}`, partial: name === "fileName" }]
      : [],
  ),
);
const grounding = { jsonSchema: fixture.jsonSchema, output: fixture.output, texts: [fixture.inputText] };

interface Case {
  key: string;
  label: string;
  run: () => unknown;
  wall: number[];
  cpu: number[];
  gcCount: number;
  gcTime: number;
}
const all: Case[] = [
  {
    key: "without",
    label: "groundOutput without span location (baseline)",
    run: () => groundOutput({ ...grounding, spanText: null }),
  },
  { key: "with", label: "groundOutput with spans", run: () => groundOutput(grounding) },
  {
    key: "locate",
    label: "locateSpans alone (10,000 requests)",
    run: () => locateSpans(fixture.inputText, spanRequests),
  },
  {
    key: "previous",
    label: "locateSpans alone, previous locator",
    run: () => previousLocateSpans(fixture.inputText, spanRequests),
  },
].map((entry) => ({ ...entry, wall: [], cpu: [], gcCount: 0, gcTime: 0 }));
const only = option("only");
const cases = only === undefined ? all : all.filter((entry) => entry.key === only);

// Collections are charged to the case whose block was running when they started.
const blocks: Array<{ start: number; end: number; entry: Case }> = [];
const observer = new PerformanceObserver((list) => {
  for (const gc of list.getEntries()) {
    const block = blocks.find(({ start, end }) => gc.startTime >= start && gc.startTime < end);
    if (block === undefined) continue;
    block.entry.gcCount++;
    block.entry.gcTime += gc.duration;
  }
});

for (const entry of cases) for (let run = 0; run < WARMUP; run++) entry.run();
observer.observe({ entryTypes: ["gc"] });
for (let done = 0; done < RUNS; done += BLOCK) {
  for (const entry of cases) {
    const start = performance.now();
    for (let run = done; run < Math.min(RUNS, done + BLOCK); run++) {
      const cpuBefore = process.cpuUsage();
      const before = performance.now();
      entry.run();
      entry.wall.push(performance.now() - before);
      const used = process.cpuUsage(cpuBefore);
      entry.cpu.push((used.user + used.system) / 1000);
    }
    blocks.push({ start, end: performance.now(), entry });
  }
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const summary = (values: number[]) => {
  const ordered = [...values].sort((a, b) => a - b);
  return `mean ${mean(values).toFixed(1)}, min ${ordered[0]!.toFixed(1)}, median ${ordered[ordered.length >> 1]!.toFixed(1)}`;
};
// GC entries are delivered asynchronously: wait a moment before reading the totals.
setTimeout(() => {
  observer.disconnect();
  console.log(`${RUNS} runs per case after ${WARMUP} warm-up, in blocks of ${BLOCK}; ms`);
  for (const entry of cases) {
    const total = entry.wall.reduce((sum, ms) => sum + ms, 0);
    console.log(entry.label);
    console.log(`  wall: ${summary(entry.wall)}`);
    console.log(`  cpu:  ${summary(entry.cpu)}`);
    console.log(
      `  gc:   ${entry.gcCount} collections, ${(entry.gcTime / entry.wall.length).toFixed(1)} ms per run = ${((entry.gcTime / total) * 100).toFixed(1)} % of wall time`,
    );
  }
  const baseline = cases.find((entry) => entry.key === "without");
  const previous = cases.find((entry) => entry.key === "previous");
  for (const entry of cases) {
    const ratios = [
      baseline !== undefined && entry !== baseline
        ? `${(mean(entry.cpu) / mean(baseline.cpu)).toFixed(2)}× the baseline`
        : "",
      previous !== undefined && entry !== previous
        ? `${(mean(entry.cpu) / mean(previous.cpu)).toFixed(2)}× the previous locator`
        : "",
    ].filter((text) => text !== "");
    if (ratios.length > 0) console.log(`cpu mean of ${entry.key}: ${ratios.join(", ")}`);
  }
}, 100);
