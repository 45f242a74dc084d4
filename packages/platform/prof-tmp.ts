import {
  type BashSnapshot,
  runBash,
} from "/work/wt-bashperf/packages/platform/src/platform-tools/bash-sandbox.ts";

const snapshot: BashSnapshot = new Map();
const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"];
for (let d = 0; d < 10; d++) {
  snapshot.set(`/workspace/dir${d}`, null);
  for (let f = 0; f < 20; f++) {
    const lines: string[] = [];
    for (let l = 0; l < 100; l++)
      lines.push(
        `${words[(d + f + l) % 10]} line ${l} of file ${f}${l % 7 === 0 ? " x marks" : ""} ${"-".repeat(20)}`,
      );
    snapshot.set(`/workspace/dir${d}/file${f}.txt`, new TextEncoder().encode(`${lines.join("\n")}\n`));
  }
}
const cmd = process.argv[2] ?? "grep -r x /workspace | wc -l";
for (let i = 0; i < 5; i++) await runBash(snapshot, cmd);
const t = performance.now();
let r;
for (let i = 0; i < 60; i++) r = await runBash(snapshot, cmd);
console.log(cmd, ((performance.now() - t) / 60).toFixed(1), "ms", JSON.stringify(r!.result).slice(0, 200));
