/** PT14: the write log, and when it hands over to comparing the whole tree. */
import { InMemoryFs } from "just-bash";
import { describe, expect, it } from "vitest";
import { type BashSnapshot, loggedChanges, WriteLog } from "./bash-write-log.js";

const bytes = (text: string) => new TextEncoder().encode(text);

function tree(snapshot: BashSnapshot): InMemoryFs {
  const fs = new InMemoryFs();
  fs.mkdirSync("/workspace", { recursive: true });
  fs.mkdirSync("/tmp", { recursive: true });
  for (const [path, content] of snapshot) {
    if (content === null) fs.mkdirSync(path, { recursive: true });
    else fs.writeFileSync(path, content);
  }
  return fs;
}

const summary = (changes: ReadonlyArray<{ kind: string; path: string }>) =>
  changes.map((c) => `${c.kind} ${c.path}`).sort();

describe("loggedChanges", () => {
  const snapshot: BashSnapshot = new Map([
    ["/workspace/a", bytes("a")],
    ["/workspace/d", null],
    ["/workspace/d/b", bytes("b")],
  ]);

  it("reads back only the logged places, with the directories a write created above them", async () => {
    const fs = tree(snapshot);
    const log = new WriteLog();
    fs.mkdirSync("/workspace/n/m", { recursive: true });
    log.record("/workspace/n/m");
    fs.writeFileSync("/workspace/d/b", bytes("B"));
    log.record("/workspace/d/b/");
    // Changed behind the log's back: not a logged place, so not read back.
    fs.writeFileSync("/workspace/a", bytes("changed"));
    const found = await loggedChanges(fs, snapshot, log);
    expect(summary(found?.changes ?? [])).toEqual([
      "dir /workspace/n",
      "dir /workspace/n/m",
      "file /workspace/d/b",
    ]);
    expect(found?.after.get("/workspace/d/b")).toEqual(bytes("B"));
    expect(found?.after.get("/workspace/a")).toEqual(bytes("a"));
  });

  it("finds deletions below a removed directory and nothing for refused or /dev/null writes", async () => {
    const fs = tree(snapshot);
    const log = new WriteLog();
    await fs.rm("/workspace/d", { recursive: true });
    log.record("/workspace/d");
    log.record("/dev/null");
    log.record("/skills/x");
    log.record("/workspace");
    const found = await loggedChanges(fs, snapshot, log);
    expect(summary(found?.changes ?? [])).toEqual(["deleted /workspace/d", "deleted /workspace/d/b"]);
    expect([...(found?.after.keys() ?? [])]).toEqual(["/workspace/a"]);
  });

  it("answers the snapshot itself when nothing was written", async () => {
    const found = await loggedChanges(tree(snapshot), snapshot, new WriteLog());
    expect(found?.after).toBe(snapshot);
    expect(found?.changes).toEqual([]);
  });

  it("hands over (null) for an unknown method, a relative or non-string path, or too many places", async () => {
    const fs = tree(snapshot);
    const unknown = new WriteLog();
    unknown.unknown = true;
    expect(await loggedChanges(fs, snapshot, unknown)).toBeNull();
    const relative = new WriteLog();
    relative.record("a");
    expect(await loggedChanges(fs, snapshot, relative)).toBeNull();
    const buffer = new WriteLog();
    buffer.record(Buffer.from("/workspace/a"));
    expect(await loggedChanges(fs, snapshot, buffer)).toBeNull();
    const many = new WriteLog();
    for (let i = 0; i < 65; i++) many.record(`/workspace/f${i}`);
    expect(await loggedChanges(fs, snapshot, many)).toBeNull();
    const fewer = new WriteLog();
    for (let i = 0; i < 64; i++) fewer.record(`/workspace/f${i}`);
    expect(await loggedChanges(fs, snapshot, fewer)).not.toBeNull();
  });
});
