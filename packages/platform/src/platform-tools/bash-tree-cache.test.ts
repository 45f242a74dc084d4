/** PT13: the file system of a conversation is reused between calls only while the stored tree is unchanged. */
import { platformTools, type ResolvedTool, type RunState, resolveTools } from "@groundwork/agents";
import { afterAll, describe, expect, it, vi } from "vitest";
import { openTestDatabase } from "../../test/test-database.js";
import { FileService } from "../files/file-service.js";
import { type BashSnapshot, BashTreeCache, runBash } from "./bash-sandbox.js";
import { PlatformToolRunner } from "./platform-tool-runner.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("BashTreeCache with runBash", () => {
  it("reuses the file system of the same revision and loads the tree otherwise", async () => {
    const trees = new BashTreeCache();
    let loads = 0;
    const load = (): BashSnapshot => {
      loads++;
      return new Map([["/workspace/f", bytes("one\n")]]);
    };
    const first = await runBash(load, "echo two >> f; cat f", { cache: { trees, key: "c", revision: "r1" } });
    expect(first.result.stdout).toBe("one\ntwo\n");
    first.keep?.("r2");
    expect(trees.size).toBe(1);
    const second = await runBash(load, "cat f", { cache: { trees, key: "c", revision: "r2" } });
    expect(second.result.stdout).toBe("one\ntwo\n");
    expect(second.changes).toEqual([]);
    expect(loads).toBe(1);
    // Taken while running and not kept: the next call loads again; so does another revision.
    const third = await runBash(load, "cat f", { cache: { trees, key: "c", revision: "r2" } });
    expect(third.result.stdout).toBe("one\n");
    expect(loads).toBe(2);
    third.keep?.("r3");
    await runBash(load, "cat f", { cache: { trees, key: "c", revision: "r4" } });
    expect(loads).toBe(3);
  });

  it("finds the changes of a command after calls that only read a reused tree", async () => {
    const trees = new BashTreeCache();
    const call = async (command: string) => {
      const run = await runBash(new Map([["/workspace/f", bytes("f\n")]]), command, {
        cache: { trees, key: "c", revision: "1" },
      });
      run.keep?.("1");
      return run;
    };
    expect((await call("echo g > g")).changes.map((c) => c.path)).toEqual(["/workspace/g"]);
    expect((await call("cat f g; ls; grep -r g .")).changes).toEqual([]);
    expect((await call("true")).changes).toEqual([]);
    const rm = await call("rm f; mkdir d; echo h >> g");
    expect(rm.changes.map((c) => `${c.kind} ${c.path}`).sort()).toEqual([
      "deleted /workspace/f",
      "dir /workspace/d",
      "file /workspace/g",
    ]);
    expect((await call("cat g; ls")).result.stdout).toBe("g\nh\nd\ng\n");
  });

  it("offers no keep for a command whose changes were discarded", async () => {
    const trees = new BashTreeCache();
    const run = await runBash(new Map(), "echo 123456 > f", {
      cache: { trees, key: "c", revision: "r" },
      limits: { fsBytes: 4 },
    });
    expect(run.result.exitCode).toBe(1);
    expect(run.keep).toBeUndefined();
    const timeout = await runBash(new Map(), "while true; do echo x > f; done", {
      cache: { trees, key: "c", revision: "r" },
      limits: { timeoutMs: 200 },
    });
    expect(timeout.keep).toBeUndefined();
  });

  it("starts every reused call from a fresh shell: variables, functions, aliases and cwd do not carry over", async () => {
    const trees = new BashTreeCache();
    const call = async (command: string) => {
      const run = await runBash(new Map(), command, { cache: { trees, key: "c", revision: "1" } });
      run.keep?.("1");
      return run.result;
    };
    await call(
      "mkdir d; cd d; X=1; export Y=2; f() { echo f; }; shopt -s expand_aliases; alias ls=pwd; set -e",
    );
    expect(trees.size).toBe(1);
    const next = await call('pwd; echo "[$X][$Y][$HOME]"; f; ls; false; echo after');
    expect(next.stdout).toBe("/workspace\n[][][/workspace]\nd\nafter\n");
    expect(next.stderr).toContain("f: command not found");
  });

  it("writes /skills afresh on reuse and evicts the least recently used entries", async () => {
    const trees = new BashTreeCache(2);
    const a = await runBash(new Map(), "true", {
      cache: { trees, key: "a", revision: "1" },
      skills: [{ qualifiedName: "s", files: [{ path: "x.md", bytes: bytes("AA") }] }],
    });
    a.keep?.("1");
    const again = await runBash(new Map(), "cat /skills/s/x.md; ls /skills", {
      cache: { trees, key: "a", revision: "1" },
      skills: [{ qualifiedName: "t", files: [{ path: "x.md", bytes: bytes("BB") }] }],
    });
    expect(again.result.stdout).toBe("t\n");
    expect(again.result.stderr).toContain("No such file");
    for (const key of ["a", "b", "c"])
      (await runBash(new Map(), "true", { cache: { trees, key, revision: "1" } })).keep?.("1");
    expect(trees.size).toBe(2);
  });
});

describe("platform_bash calls through the runner", async () => {
  const database = await openTestDatabase();
  const store = await database.open();
  const other = await database.open();
  afterAll(async () => {
    await Promise.all([store.close(), other.close()]);
    await database.remove();
  });
  const org = (await store.organizations.create("acme", "enterprise")).id;
  const conversationId = (await store.agents.createConversation(org, null, "ask")).id;
  const principal = {
    organizationName: "acme",
    organizationId: org,
    role: "member" as const,
    plan: "enterprise" as const,
    apiKeyId: "key_1",
  };
  const runner = new PlatformToolRunner(store, new FileService(store), {
    webSearch: null,
    allowPrivateNetwork: false,
  });
  const tool = resolveTools([{ type: "platform.bash" }])[0] as ResolvedTool;
  const state = { conversationId, model: "m", deliverables: [], pendingApprovals: [] } as unknown as RunState;
  let n = 0;
  const bash = async (command: string) => {
    const result = await runner.execute(principal, {
      tool,
      callId: `c${++n}`,
      arguments: JSON.stringify({ command }),
      state,
    });
    return JSON.parse(result?.output ?? "{}") as { stdout: string; exitCode: number };
  };

  it("sees writes of this store and of another connection between calls", async () => {
    expect(platformTools().length).toBeGreaterThan(0);
    const loads = vi.spyOn(store.bashFiles, "load");
    expect((await bash("echo one > f; cat f")).stdout).toBe("one\n");
    expect((await bash("cat f")).stdout).toBe("one\n");
    expect(loads).toHaveBeenCalledTimes(1);
    await store.bashFiles.apply(org, conversationId, [
      { path: "/workspace/f", kind: "file", bytes: bytes("two\n") },
    ]);
    expect((await bash("cat f")).stdout).toBe("two\n");
    expect(loads).toHaveBeenCalledTimes(2);
    await other.bashFiles.apply(org, conversationId, [
      { path: "/workspace/f", kind: "file", bytes: bytes("three\n") },
    ]);
    expect((await bash("cat f")).stdout).toBe("three\n");
    expect((await bash("rm f; ls")).stdout).toBe("");
    expect((await store.bashFiles.load(conversationId)).has("/workspace/f")).toBe(false);
    expect((await bash("ls; echo four > g")).exitCode).toBe(0);
    expect((await other.bashFiles.load(conversationId)).get("/workspace/g")).toEqual(bytes("four\n"));
  });

  it("two concurrent calls of one conversation both land and later calls see both", async () => {
    await Promise.all([bash("echo a > p"), bash("echo b > q")]);
    expect((await bash("cat p q")).stdout).toBe("a\nb\n");
  });
});
