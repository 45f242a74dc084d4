/** The simulated shell of `platform_bash`: built-ins only, the writable roots, limits, escapes. */
import { describe, expect, it } from "vitest";
import { applyChanges, type BashSnapshot, runBash } from "./bash-sandbox.js";

const enc = (text: string) => new TextEncoder().encode(text);

async function sequence(commands: string[], start: BashSnapshot = new Map()) {
  let tree = start;
  const results = [];
  for (const command of commands) {
    const run = await runBash(tree, command);
    tree = applyChanges(tree, run.changes);
    results.push(run.result);
  }
  return { tree, results };
}

describe("runBash", () => {
  it("runs the built-ins with pipes, redirections and operators in /workspace", async () => {
    const { tree, results } = await sequence([
      "printf 'b\\na\\nb\\n' > list.txt && sort list.txt | uniq | tr a-z A-Z",
      "cat < list.txt | head -1; false || echo fallback; true && echo yes",
      "mkdir -p d && cp list.txt d/copy && mv d/copy d/moved && ls d && find . -name '*.txt'",
      "echo one > /tmp/t && tee -a /tmp/t < list.txt > /dev/null; wc -l /tmp/t | cut -d' ' -f1",
      "diff list.txt d/moved && echo same; rm d/moved && ls d | wc -l",
      'echo "$HOME" "$PWD"; cd /tmp && pwd',
    ]);
    expect(results.map((r) => r.exitCode)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(results[0]?.stdout).toBe("A\nB\n");
    expect(results[1]?.stdout).toBe("b\nfallback\nyes\n");
    expect(results[2]?.stdout).toBe("moved\n./list.txt\n");
    expect(results[3]?.stdout).toBe("4\n");
    expect(results[4]?.stdout).toBe("same\n0\n");
    expect(results[5]?.stdout).toBe("/workspace /workspace\n/tmp\n");
    expect([...tree.keys()].sort()).toEqual(["/tmp/t", "/workspace/d", "/workspace/list.txt"]);
  });

  it("answers exit 127 for anything outside the built-ins", async () => {
    for (const program of [
      "curl http://example.com",
      "wget x",
      "python3 -c 1",
      "node -e 1",
      "sqlite3",
      "sed s/a/b/",
      "awk 1",
      "bash -c 'echo'",
      "sh -c 'echo'",
      "ln -s / root",
      "xargs echo",
      "js-exec -c 1",
    ]) {
      const { result } = await runBash(new Map(), program);
      expect(result.exitCode, program).toBe(127);
      expect(result.stderr, program).toMatch(/command not found/);
    }
  });

  it("never reads host files or escapes the writable roots", async () => {
    const { tree, results } = await sequence([
      "cat /etc/passwd",
      "cat /proc/self/environ",
      "cat ../../../../etc/hostname",
      "echo x > ../../etc/evil",
      "echo x > /evil",
      "mkdir /opt",
      "rm /workspace",
      "mv /workspace /tmp/w",
      "cp /workspace /skills/x",
      "touch /skills/x",
    ]);
    for (const [index, result] of results.entries()) {
      expect(result.exitCode, String(index)).not.toBe(0);
      expect(result.stdout, String(index)).toBe("");
    }
    expect(tree.size).toBe(0);
    const kept = await sequence(["echo k > k", "rm -rf /workspace; cd /workspace && cat k"]);
    expect(kept.results[1]?.stdout).toBe("k\n");
  });

  it("keeps /skills read-only and readable", async () => {
    const skills = [{ qualifiedName: "pdf", files: [{ path: "SKILL.md", bytes: enc("# PDF skill\n") }] }];
    const read = await runBash(new Map(), "cat /skills/pdf/SKILL.md", { skills });
    expect(read.result).toMatchObject({ exitCode: 0, stdout: "# PDF skill\n" });
    const write = await runBash(new Map(), "echo x >> /skills/pdf/SKILL.md; rm /skills/pdf/SKILL.md", {
      skills,
    });
    expect(write.result.exitCode).not.toBe(0);
    expect(write.changes).toEqual([]);
  });

  it("truncates each stream at 64 KiB", async () => {
    const big = new Map([["/workspace/big", enc("y".repeat(200_000))]]) as BashSnapshot;
    const { result } = await runBash(big, "cat big");
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.stdout)).toBe(64 * 1024);
    const small = await runBash(big, "head -c 10 big");
    expect(small.result).toMatchObject({ stdout: "yyyyyyyyyy", truncated: false });
  });

  it("stops infinite loops, fork bombs and deep recursion", async () => {
    for (const command of ["while true; do true; done", ":(){ :|:& };:", "f(){ f; }; f"]) {
      const started = Date.now();
      const { result } = await runBash(new Map(), command);
      expect(result.exitCode, command).not.toBe(0);
      expect(Date.now() - started, command).toBeLessThan(6000);
    }
  });

  it("exits 124 past the time limit", async () => {
    const { result, changes } = await runBash(new Map(), "while true; do echo x > f; done", {
      limits: { timeoutMs: 100 },
    });
    expect(result.exitCode).toBe(124);
    expect(result.stderr).toMatch(/time limit/);
    expect(changes).toEqual([]);
  });

  it("refuses more than 1,000 files or 50 MiB with 'No space left on device'", async () => {
    const many: BashSnapshot = new Map();
    for (let i = 0; i < 1000; i++) many.set(`/workspace/f${i}`, enc("x"));
    const over = await runBash(many, "touch one-more");
    expect(over.result.exitCode).toBe(1);
    expect(over.result.stderr).toMatch(/No space left on device/);
    expect(over.changes).toEqual([]);
    const ok = await runBash(many, "rm f0 && touch one-more");
    expect(ok.result.exitCode).toBe(0);

    const large: BashSnapshot = new Map([["/workspace/a", new Uint8Array(30 * 1024 * 1024)]]);
    const copy = await runBash(large, "cp a b");
    expect(copy.result.exitCode).toBe(1);
    expect(copy.result.stderr).toMatch(/No space left on device/);
    expect(copy.changes).toEqual([]);
  });

  it("reports changes: written files, new directories and deletions", async () => {
    const start: BashSnapshot = new Map([
      ["/workspace/keep", enc("k")],
      ["/workspace/gone", enc("g")],
    ]);
    const run = await runBash(start, "rm gone && mkdir sub && echo new > sub/n && cat keep");
    expect(run.result.stdout).toBe("k");
    const byPath = Object.fromEntries(run.changes.map((c) => [c.path, c.kind]));
    expect(byPath).toEqual({
      "/workspace/gone": "deleted",
      "/workspace/sub": "dir",
      "/workspace/sub/n": "file",
    });
  });
});
