/**
 * A `platform_bash` call (`grep -r x /workspace | wc -l`) over a 1 MB virtual tree (target
 * p50 < 20 ms), as the tool runs it: the conversation's tree loaded from SQLite, the
 * in-memory file system rebuilt, the command run and its changes computed. Beside it: the
 * same command over a snapshot already in memory, and the floor — the same search done in
 * plain JS over the same in-memory files. The "reused" rows do what the tool runner does
 * (PT13): the file system of the previous call is reused while the stored revision holds.
 * Run: pnpm bench (or npx vitest bench --run --project platform after a build).
 */
import { openStore } from "@groundwork/store-sqlite";
import { bench, describe } from "vitest";
import { type BashSnapshot, BashTreeCache, runBash } from "../src/platform-tools/bash-sandbox.js";

const store = openStore({ file: ":memory:" });
const org = store.organizations.create("bench", "enterprise");
const conversation = store.agents.createConversation(org.id, null, "ask", {
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
store.bashFiles.apply(
  org.id,
  conversation.id,
  [...snapshot].map(([path, bytes]) => ({ path, kind: bytes === null ? "dir" : "file", bytes })),
);
const decoder = new TextDecoder();
const trees = new BashTreeCache();

/** One call the way the tool runner makes it (revision check, reused file system). */
async function toolCall(command: string): Promise<void> {
  const revision = store.bashFiles.revision(conversation.id);
  const key = `${revision.dataVersion}:${revision.writes}`;
  const run = await runBash(() => store.bashFiles.load(conversation.id), command, {
    cache: { trees, key: conversation.id, revision: key },
  });
  run.keep?.(key);
}

describe(`platform_bash over ${total} bytes in ${snapshot.size} entries`, () => {
  bench("tool call: load from SQLite + grep -r x /workspace | wc -l", async () => {
    await runBash(store.bashFiles.load(conversation.id), "grep -r x /workspace | wc -l");
  });
  bench("tool call, file system reused: grep -r x /workspace | wc -l", async () => {
    await toolCall("grep -r x /workspace | wc -l");
  });
  bench("tool call, file system reused: `true`", async () => {
    await toolCall("true");
  });
  bench("runBash over an in-memory snapshot", async () => {
    await runBash(snapshot, "grep -r x /workspace | wc -l");
  });
  bench("runBash `true` (the tool's own cost: rebuild, run, diff)", async () => {
    await runBash(snapshot, "true");
  });
  bench("baseline: the same count in plain JS", () => {
    let count = 0;
    for (const bytes of snapshot.values()) {
      if (bytes === null) continue;
      for (const line of decoder.decode(bytes).split("\n")) if (line.includes("x")) count++;
    }
    if (count === 0) throw new Error("no match");
  });
});
