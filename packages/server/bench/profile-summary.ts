/**
 * A textual flame summary of a `--cpu-prof` profile (the gateway's, from gateway-overhead.ts with
 * GATEWAY_BENCH_PROFILE=<dir>): the functions with the most self time, the most inclusive time
 * (a function counted once per sample however deep it recurses), and the share of each area of a
 * gateway call. Shares are of the busy (non-idle) samples; start-up (module loading) is left out.
 *   node --import tsx packages/server/bench/profile-summary.ts <file.cpuprofile> [top]
 */
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Areas of a gateway call. A sample belongs to the area of the frame nearest its leaf that
 * matches one (so the request-id context, which wraps the whole middleware chain, only gets
 * its own work); socket writes and garbage collection are told apart first.
 */
const AREAS: Array<[string, (frame: CallFrame) => boolean]> = [
  ["garbage collection", (f) => f.functionName === "(garbage collector)"],
  [
    "socket writes (writev: the answer to the client, the request upstream)",
    (f) => f.functionName === "writev",
  ],
  [
    "tracing: trace rows (SQLite batch)",
    (f) => /store-sqlite\/src\/traces\.ts|tracing-service\.ts/.test(f.url),
  ],
  [
    "tracing: spans and the request-id context",
    (f) => /observability\/src\/tracing|@opentelemetry|gateway-tracing\.ts/.test(f.url),
  ],
  ["usage records (queue and SQLite batch)", (f) => /usage-records\.ts|usage-metering\.ts/.test(f.url)],
  ["access log", (f) => /server\/src\/logger\.ts/.test(f.url) || /request-context\.ts/.test(f.url)],
  ["key auth", (f) => /api-keys\.ts|http\/auth\.ts/.test(f.url)],
  ["rate limit and plan allowance", (f) => /rate-limit|billing|plan-allowance/.test(f.url)],
  [
    "body read and validation (JSON parse, zod / chat-body validator)",
    (f) => /zod|chat-request|chat-body|http\/body\.ts|node-request\.ts/.test(f.url),
  ],
  [
    "upstream call (chat transport, undici)",
    (f) => /openai-chat-transport|fast-fetch|undici|upstream-errors|openai-compatible-adapter/.test(f.url),
  ],
  ["SSE relay", (f) => /routes\/gateway\/sse\.ts/.test(f.url)],
  ["gateway engine (routing, preparation)", (f) => /packages\/gateway\/src/.test(f.url)],
  ["server routes and middleware", (f) => /packages\/server\/src/.test(f.url)],
  ["hono routing and the Node adapter", (f) => /hono/.test(f.url)],
  ["Node HTTP server, streams and timers", (f) => /^node:/.test(f.url)],
];

function label(frame: CallFrame): string {
  const file = frame.url
    .replace(/^.*\/(node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?)/, "")
    .replace(/^.*\/packages\//, "");
  return `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`;
}

function main(): void {
  const [path, topArg] = process.argv.slice(2);
  if (path === undefined) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
  const top = Number(topArg ?? 25);
  const profile = JSON.parse(readFileSync(path, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  let busy = 0;
  let startup = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const time = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(profile.samples[i] ?? -1);
    if (leaf === undefined || leaf.callFrame.functionName === "(idle)") continue;
    const stack: CallFrame[] = [];
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id);
      if (node !== undefined) stack.push(node.callFrame);
    }
    // Module loading at start-up is not a gateway call's cost.
    if (
      stack.some(
        (f) =>
          /^(Module\._load|importModuleDynamically|link|instantiate|makeAsyncRequest)$/.test(
            f.functionName,
          ) || /esm\/loader|esm\/hooks|module_job/.test(f.url),
      )
    ) {
      startup += time;
      continue;
    }
    busy += time;
    self.set(label(leaf.callFrame), (self.get(label(leaf.callFrame)) ?? 0) + time);
    const seen = new Set<string>();
    for (const frame of stack) {
      const name = label(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + time);
    }
    let area = "other (program, native, V8)";
    for (const frame of stack) {
      const found = AREAS.find(([, matches]) => matches(frame));
      if (found !== undefined) {
        area = found[0];
        break;
      }
    }
    areas.set(area, (areas.get(area) ?? 0) + time);
  }
  const share = (time: number) => `${((100 * time) / busy).toFixed(1).padStart(5)} %`;
  const list = (title: string, entries: Map<string, number>, count: number) => {
    console.log(`\n${title}`);
    for (const [name, time] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      console.log(`${share(time)}  ${name}`);
    }
  };
  console.log(
    `${(busy / 1e6).toFixed(2)} s busy (start-up ${(startup / 1e6).toFixed(2)} s left out), ${profile.samples.length} samples`,
  );
  list("By area (each sample under the area of the frame nearest its leaf that has one):", areas, 50);
  list(`Top ${top} by self time:`, self, top);
  list(`Top ${top} by inclusive time:`, inclusive, top);
}

main();
