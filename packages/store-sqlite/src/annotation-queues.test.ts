import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./open-store.js";

let store: Store;
let org: string;
let other: string;
let now = 1_000;
const all = { page: 0, size: 100 };
const configs = [{ name: "quality", dataType: "NUMERIC" as const, min: 1, max: 5 }];

beforeEach(() => {
  now = 1_000;
  store = openStore({ file: ":memory:", clock: { now: () => now++ } });
  org = store.organizations.create("acme", "enterprise").id;
  other = store.organizations.create("other", "enterprise").id;
});
afterEach(() => store.close());

const queues = () => store.annotationQueues;
const subjects = (...ids: string[]) => ids.map((subjectId) => ({ subjectType: "conversation", subjectId }));

describe("AnnotationQueueStore queues", () => {
  it("creates, reads, renames and lists queues newest first, by status, per organization", () => {
    const first = queues().createQueue(org, { name: "triage", description: null, scoreConfigs: configs });
    expect(first).toMatchObject({
      id: expect.stringMatching(/^aq_/),
      status: "ACTIVE",
      scoreConfigs: configs,
      counts: { pending: 0, completed: 0 },
      archivedAt: null,
    });
    const second = queues().createQueue(org, { name: "review", description: "d", scoreConfigs: configs });
    queues().createQueue(other, { name: "triage", description: null, scoreConfigs: configs });
    expect(queues().getQueue(other, first.id)).toBeNull();
    expect(queues().findQueueByName(org, "review")?.id).toBe(second.id);
    expect(queues().updateQueue(org, first.id, { name: "triage-2", description: "x" })).toMatchObject({
      name: "triage-2",
      description: "x",
      scoreConfigs: configs,
    });
    queues().archiveQueue(org, second.id);
    const ids = (status: "ACTIVE" | "ARCHIVED" | null) =>
      queues()
        .listQueues(org, status, all)
        .items.map((q) => q.id);
    expect(ids(null)).toEqual([second.id, first.id]);
    expect(ids("ACTIVE")).toEqual([first.id]);
    expect(ids("ARCHIVED")).toEqual([second.id]);
    expect(queues().listQueues(org, null, { page: 1, size: 1 })).toMatchObject({ total: 2 });
  });

  it("archives once, keeping the first archivedAt, and releases every lock", () => {
    const queue = queues().createQueue(org, { name: "q", description: null, scoreConfigs: configs });
    queues().addItems(org, queue.id, subjects("conv_1", "conv_2"));
    const claimed = queues().claim(queue.id, "key_a", 5_000, 60_000);
    expect(claimed?.lockedByKeyId).toBe("key_a");
    const archived = queues().archiveQueue(org, queue.id);
    expect(archived).toMatchObject({ status: "ARCHIVED", archivedAt: expect.any(Number) });
    expect(queues().archiveQueue(org, queue.id).archivedAt).toBe(archived.archivedAt);
    const item = queues().getItem(queue.id, claimed?.id ?? "");
    expect(item).toMatchObject({ lockedByKeyId: null, lockedUntil: null, status: "PENDING" });
  });
});

describe("AnnotationQueueStore items", () => {
  it("adds in call order, skips subjects already PENDING, counts and lists by status", () => {
    const queue = queues().createQueue(org, { name: "q", description: null, scoreConfigs: configs });
    const first = queues().addItems(org, queue.id, subjects("conv_b", "conv_a", "conv_b"));
    expect(first.skipped).toBe(1);
    expect(first.added.map((i) => i.subjectId)).toEqual(["conv_b", "conv_a"]);
    expect(first.added[0]).toMatchObject({
      id: expect.stringMatching(/^aqi_/),
      queueId: queue.id,
      status: "PENDING",
      lockedByKeyId: null,
      scoreIds: [],
      scoredNames: [],
    });
    const [b] = first.added;
    queues().updateItem(queue.id, b?.id ?? "", { status: "COMPLETED", completedByKeyId: "key_a" });
    // A completed subject may be queued again; a pending one is skipped.
    const again = queues().addItems(org, queue.id, subjects("conv_b", "conv_a"));
    expect(again).toMatchObject({ skipped: 1, added: [{ subjectId: "conv_b" }] });
    expect(queues().getQueue(org, queue.id)?.counts).toEqual({ pending: 2, completed: 1 });
    const listed = (status: "PENDING" | "COMPLETED" | null) =>
      queues()
        .listItems(queue.id, status, all)
        .items.map((i) => i.subjectId);
    expect(listed(null)).toEqual(["conv_b", "conv_a", "conv_b"]);
    expect(listed("COMPLETED")).toEqual(["conv_b"]);
    expect(
      queues()
        .listItems(queue.id, null, { page: 1, size: 2 })
        .items.map((i) => i.subjectId),
    ).toEqual(["conv_b"]);
  });

  it("finds an organization's items on one subject across queues, newest first", () => {
    const a = queues().createQueue(org, { name: "a", description: null, scoreConfigs: configs });
    const b = queues().createQueue(org, { name: "b", description: null, scoreConfigs: configs });
    const foreign = queues().createQueue(other, { name: "a", description: null, scoreConfigs: configs });
    const inA = queues().addItems(org, a.id, subjects("conv_1")).added[0];
    const inB = queues().addItems(org, b.id, subjects("conv_1", "conv_2")).added[0];
    queues().addItems(other, foreign.id, subjects("conv_1"));
    queues().updateItem(b.id, inB?.id ?? "", { status: "COMPLETED" });
    const found = (status: "PENDING" | "COMPLETED" | null) =>
      queues()
        .findItems(org, { subjectType: "conversation", subjectId: "conv_1" }, status, all)
        .items.map((i) => i.id);
    expect(found(null)).toEqual([inB?.id, inA?.id]);
    expect(found("PENDING")).toEqual([inA?.id]);
    expect(queues().findItems(org, { subjectType: "response", subjectId: "conv_1" }, null, all).total).toBe(
      0,
    );
  });

  it("claims the oldest free PENDING item, returns and renews the caller's own lock, frees expired locks", () => {
    const queue = queues().createQueue(org, { name: "q", description: null, scoreConfigs: configs });
    const [one, two] = queues().addItems(org, queue.id, subjects("conv_1", "conv_2")).added;
    const a = queues().claim(queue.id, "key_a", 10_000, 1_000);
    expect(a).toMatchObject({ id: one?.id, lockedByKeyId: "key_a", lockedUntil: 11_000 });
    // The caller's own unexpired lock comes back, renewed.
    expect(queues().claim(queue.id, "key_a", 10_500, 1_000)).toMatchObject({
      id: one?.id,
      lockedUntil: 11_500,
    });
    expect(queues().claim(queue.id, "key_b", 10_600, 1_000)).toMatchObject({ id: two?.id });
    expect(queues().claim(queue.id, "key_c", 10_700, 1_000)).toBeNull();
    // key_a's lock expired at 11,500: key_c gets that item; a lock ending exactly now is expired.
    expect(queues().claim(queue.id, "key_c", 11_500, 1_000)).toMatchObject({
      id: one?.id,
      lockedByKeyId: "key_c",
    });
    // key_a's own lock is gone, so it gets whatever is free (key_b's lock expired at 11,600).
    expect(queues().claim(queue.id, "key_a", 11_600, 1_000)).toMatchObject({
      id: two?.id,
      lockedByKeyId: "key_a",
    });
    queues().updateItem(queue.id, two?.id ?? "", { status: "COMPLETED" });
    expect(queues().claim(queue.id, "key_a", 11_700, 1_000)).toBeNull();
  });

  it("treats the caller's own expired lock like no lock: the oldest free item comes first", () => {
    const queue = queues().createQueue(org, { name: "q", description: null, scoreConfigs: configs });
    const [one, two] = queues().addItems(org, queue.id, subjects("conv_1", "conv_2")).added;
    queues().updateItem(queue.id, two?.id ?? "", { lockedByKeyId: "key_a", lockedUntil: 5_000 });
    expect(queues().claim(queue.id, "key_a", 5_000, 1_000)?.id).toBe(one?.id);
    expect(queues().claim(queue.id, "key_b", 5_000, 1_000)?.id).toBe(two?.id);
  });

  it("lists the scores recorded through each item, oldest first", () => {
    const queue = queues().createQueue(org, { name: "q", description: null, scoreConfigs: configs });
    const [item] = queues().addItems(org, queue.id, subjects("conv_1")).added;
    const score = (value: number) =>
      store.scores.create({
        organizationId: org,
        subjectType: "conversation",
        subjectId: "conv_1",
        name: "quality",
        dataType: "NUMERIC",
        value,
        comment: null,
        source: "HUMAN",
        queueItemId: item?.id ?? "",
        createdByKeyId: "key_a",
      });
    const s1 = score(4);
    const s2 = score(5);
    expect(queues().getItem(queue.id, item?.id ?? "")?.scoreIds).toEqual([s1.id, s2.id]);
    expect(queues().listItems(queue.id, null, all).items[0]?.scoreIds).toEqual([s1.id, s2.id]);
  });
});

describe("claims from two processes on one database file", () => {
  let dir: string;
  const children: ChildProcessWithoutNullStreams[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("never hands one item to both", { timeout: 60_000 }, async () => {
    dir = mkdtempSync(join(tmpdir(), "gw-aq-"));
    const file = join(dir, "groundwork.db");
    const shared = openStore({ file });
    const orgId = shared.organizations.create("acme", "enterprise").id;
    const queue = shared.annotationQueues.createQueue(orgId, {
      name: "q",
      description: null,
      scoreConfigs: configs,
    });
    const count = 1_000;
    const ids = shared.annotationQueues
      .addItems(
        orgId,
        queue.id,
        Array.from({ length: count }, (_, i) => ({ subjectType: "conversation", subjectId: `conv_${i}` })),
      )
      .added.map((item) => item.id);
    shared.close();

    const script = fileURLToPath(new URL("../test/claim-queue-items.ts", import.meta.url));
    const root = fileURLToPath(new URL("../../..", import.meta.url));
    const outputs = ["key_a", "key_b"].map((member) => {
      const child = spawn(process.execPath, ["--import", "tsx", script, file, queue.id, member], {
        cwd: root,
      });
      children.push(child);
      let out = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        out += chunk;
      });
      const said = (word: string) =>
        new Promise<void>((resolve, reject) => {
          const poll = setInterval(() => {
            if (out.includes(`${word}\n`)) {
              clearInterval(poll);
              resolve();
            }
          }, 10);
          child.once("exit", (code) => {
            clearInterval(poll);
            reject(new Error(`child exited early with ${code}`));
          });
        });
      const ready = said("ready");
      const first = said("first");
      const done = new Promise<string[]>((resolve, reject) => {
        child.once("exit", (code) => {
          if (code !== 0) reject(new Error(`child exited with ${code}`));
          else resolve(JSON.parse(out.split("\n").filter(Boolean).at(-1) ?? "[]") as string[]);
        });
      });
      return { child, ready, first, done };
    });
    await Promise.all(outputs.map((o) => o.ready));
    for (const { child } of outputs) child.stdin.write("go\n");
    // Both hold one claim before either drains the rest (the child's barrier).
    await Promise.all(outputs.map((o) => o.first));
    for (const { child } of outputs) child.stdin.write("more\n");
    const [a, b] = await Promise.all(outputs.map((o) => o.done));
    // Both processes got work, so their claims did contend.
    expect(a?.length).toBeGreaterThan(0);
    expect(b?.length).toBeGreaterThan(0);
    const claimedA = new Set(a);
    expect((b ?? []).filter((id) => claimedA.has(id))).toEqual([]);
    expect([...(a ?? []), ...(b ?? [])].sort()).toEqual([...ids].sort());
  });
});
