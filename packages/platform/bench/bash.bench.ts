/**
 * A `platform_bash` call (`grep -r x /workspace | wc -l`) over a 1 MB virtual tree (target
 * p50 < 20 ms), as the tool runs it: the conversation's tree loaded from SQLite, the
 * in-memory file system rebuilt, the command run and its changes computed. Beside it: the
 * same command over a snapshot already in memory, and the floor — the same search done in
 * plain JS over the same in-memory files. The "reused" rows do what the tool runner does
 * (PT13, PT14): the file system and shell of the previous call are reused while the stored
 * revision holds, and only the paths a command wrote are compared.
 * After the run, a table gives p50, mean and min of each row beside the baseline's (the same
 * run, so the ratio holds on a shared machine).
 * Run: pnpm bench (or npx vitest bench --run --project platform bash).
 */
import { openStore } from "@groundwork/store-sqlite";
import { afterAll, bench, describe } from "vitest";
import { type BashSnapshot, BashTreeCache, runBash } from "../src/platform-tools/bash-sandbox.js";

const store = openStore({ file: ":memory:" });
const org = await store.organizations.create("bench", "enterprise");
const conversation = await store.agents.createConversation(org.id, null, "ask", {
  createdByKeyId: "key_bench",
});

// 200 files of ~5 KB in 10 folders: 1 MB of text lines, some with an "x".
const snapshot: BashSnapshot = new Map();
const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"];
let total = 0;
for (let d = 0; d < 10; d++) {
  snapshot.set(`/workspace/dir${d}`, null);
  for (let f = 0; f < 20; f++) {
    const lines: string[] = [];
    for (let l = 0; l < 100; l++) {
      lines.push(
        `${words[(d + f + l) % 10]} line ${l} of file ${f}${l % 7 === 0 ? " x marks" : ""} ${"-".repeat(20)}`,
      );
    }
    const bytes = new TextEncoder().encode(`${lines.join("\n")}\n`);
    total += bytes.length;
    snapshot.set(`/workspace/dir${d}/file${f}.txt`, bytes);
  }
}
await store.bashFiles.apply(
  org.id,
  conversation.id,
  [...snapshot].map(([path, bytes]) => ({ path, kind: bytes === null ? "dir" : "file", bytes })),
);
const decoder = new TextDecoder();
const trees = new BashTreeCache();

/** Each row's own timings (ms), for the ratio table printed after the run. */
const timings = new Map<string, number[]>();
function timed(name: string, fn: () => Promise<void> | void): [string, () => Promise<void>] {
  const samples: number[] = [];
  timings.set(name, samples);
  return [
    name,
    async () => {
      const started = performance.now();
      await fn();
      samples.push(performance.now() - started);
    },
  ];
}

const BASELINE = "baseline: the same count in plain JS";
const OPTIONS = { time: 2000, warmupTime: 200 };

afterAll(() => {
  const stats = (samples: number[]) => {
    const sorted = [...samples].sort((a, b) => a - b);
    const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
    return { p50: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, mean, min: sorted[0] ?? Number.NaN };
  };
  const base = stats(timings.get(BASELINE) ?? []);
  const rows = [...timings].map(([name, samples]) => {
    const s = stats(samples);
    return {
      row: name,
      samples: samples.length,
      "p50 ms": s.p50.toFixed(2),
      "mean ms": s.mean.toFixed(2),
      "min ms": s.min.toFixed(2),
      "p50 / baseline p50": (s.p50 / base.p50).toFixed(1),
      "p50 < 20 ms": s.p50 < 20 ? "yes" : "no",
    };
  });
  console.table(rows);
});

/** One call the way the tool runner makes it (revision check, reused file system). */
async function toolCall(command: string): Promise<void> {
  const revision = await store.bashFiles.revision(conversation.id);
  const key = `${revision.dataVersion}:${revision.writes}`;
  const run = await runBash(async () => await store.bashFiles.load(conversation.id), command, {
    cache: { trees, key: conversation.id, revision: key },
  });
  run.keep?.(key);
}

describe(`platform_bash over ${total} bytes in ${snapshot.size} entries`, () => {
  bench(
    ...timed("tool call: load from SQLite + grep -r x /workspace | wc -l", async () => {
      await runBash(await store.bashFiles.load(conversation.id), "grep -r x /workspace | wc -l");
    }),
    OPTIONS,
  );
  bench(
    ...timed("tool call, file system reused: grep -r x /workspace | wc -l", async () => {
      await toolCall("grep -r x /workspace | wc -l");
    }),
    OPTIONS,
  );
  bench(
    ...timed("tool call, file system reused: `true`", async () => {
      await toolCall("true");
    }),
    OPTIONS,
  );
  bench(
    ...timed("runBash over an in-memory snapshot", async () => {
      await runBash(snapshot, "grep -r x /workspace | wc -l");
    }),
    OPTIONS,
  );
  bench(
    ...timed("runBash `true` (the tool's own cost: rebuild, run, diff)", async () => {
      await runBash(snapshot, "true");
    }),
    OPTIONS,
  );
  bench(
    ...timed(BASELINE, () => {
      let count = 0;
      for (const bytes of snapshot.values()) {
        if (bytes === null) continue;
        for (const line of decoder.decode(bytes).split("\n")) if (line.includes("x")) count++;
      }
      if (count === 0) throw new Error("no match");
    }),
    OPTIONS,
  );
});
