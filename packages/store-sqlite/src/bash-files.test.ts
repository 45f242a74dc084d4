import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

let store: Store;
let org: string;
let conv: string;
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | null | undefined) =>
  value === null || value === undefined ? value : new TextDecoder().decode(value);

beforeEach(() => {
  store = openStore({ file: ":memory:" });
  org = store.organizations.create("acme", "enterprise").id;
  conv = store.agents.createConversation(org, null, "ask").id;
});
afterEach(() => store.close());

describe("BashFileStore", () => {
  it("bumps the revision of a conversation's tree on each commit, not on staging", () => {
    const other = store.agents.createConversation(org, null, "ask").id;
    const start = store.bashFiles.revision(conv);
    store.bashFiles.apply(org, conv, [{ path: "/workspace/a", kind: "file", bytes: bytes("a") }]);
    expect(store.bashFiles.revision(conv)).toEqual({ ...start, writes: start.writes + 1 });
    store.bashFiles.stage(
      org,
      conv,
      "call_1",
      [{ path: "/workspace/b", kind: "file", bytes: bytes("b") }],
      {},
    );
    expect(store.bashFiles.revision(conv).writes).toBe(start.writes + 1);
    store.bashFiles.commitStage(org, conv, "call_1");
    expect(store.bashFiles.revision(conv).writes).toBe(start.writes + 2);
    expect(store.bashFiles.revision(other).writes).toBe(0);
  });

  it("applies changes to the committed tree and reports usage", () => {
    store.bashFiles.apply(org, conv, [
      { path: "/workspace/d", kind: "dir", bytes: null },
      { path: "/workspace/d/a", kind: "file", bytes: bytes("hello") },
      { path: "/tmp/t", kind: "file", bytes: bytes("x") },
    ]);
    store.bashFiles.apply(org, conv, [
      { path: "/tmp/t", kind: "deleted", bytes: null },
      { path: "/workspace/d/a", kind: "file", bytes: bytes("hi") },
    ]);
    const tree = store.bashFiles.load(conv);
    expect([...tree.keys()]).toEqual(["/workspace/d", "/workspace/d/a"]);
    expect(tree.get("/workspace/d")).toBeNull();
    expect(text(tree.get("/workspace/d/a"))).toBe("hi");
    expect(store.bashFiles.usage(conv)).toEqual({ bytes: 2, files: 1 });
  });

  it("keeps held changes apart until they are committed or discarded", () => {
    store.bashFiles.apply(org, conv, [{ path: "/workspace/old", kind: "file", bytes: bytes("o") }]);
    const result = { stdout: "ok\n", stderr: "", exitCode: 0, truncated: false };
    store.bashFiles.stage(
      org,
      conv,
      "call_1",
      [
        { path: "/workspace/old", kind: "deleted", bytes: null },
        { path: "/workspace/new", kind: "file", bytes: bytes("n") },
      ],
      result,
    );
    expect([...store.bashFiles.load(conv).keys()]).toEqual(["/workspace/old"]);
    expect(store.bashFiles.heldOutput(conv, "call_1")).toEqual(result);
    expect(store.bashFiles.commitStage(org, conv, "call_1")).toEqual(result);
    expect([...store.bashFiles.load(conv).keys()]).toEqual(["/workspace/new"]);
    expect(store.bashFiles.commitStage(org, conv, "call_1")).toBeNull();

    store.bashFiles.stage(
      org,
      conv,
      "call_2",
      [{ path: "/workspace/x", kind: "file", bytes: bytes("x") }],
      result,
    );
    store.bashFiles.discardStages(conv);
    expect(store.bashFiles.heldOutput(conv, "call_2")).toBeNull();
    expect(store.bashFiles.commitStage(org, conv, "call_2")).toBeNull();
    expect([...store.bashFiles.load(conv).keys()]).toEqual(["/workspace/new"]);
  });

  it("goes with the conversation", () => {
    store.bashFiles.apply(org, conv, [{ path: "/workspace/a", kind: "file", bytes: bytes("a") }]);
    store.bashFiles.stage(org, conv, "c", [], { stdout: "" });
    store.conversations.delete(org, conv);
    expect(store.bashFiles.load(conv).size).toBe(0);
    expect(store.bashFiles.heldOutput(conv, "c")).toBeNull();
  });
});
