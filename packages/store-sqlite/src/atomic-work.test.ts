import { describe, expect, it } from "vitest";
import { runAtomically } from "./atomic-work.js";
import { openDatabase } from "./database.js";

function setup() {
  const db = openDatabase(":memory:");
  db.exec("CREATE TABLE t (v INTEGER)");
  const insert = (v: number) => db.prepare("INSERT INTO t (v) VALUES (?)").run(v);
  const values = () =>
    (db.prepare("SELECT v FROM t ORDER BY rowid").all() as { v: number }[]).map((r) => r.v);
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return { db, insert, values, tick };
}

describe("runAtomically", () => {
  it("runs synchronous work in one transaction, rolled back when it throws", () => {
    const { db, insert, values } = setup();
    expect(
      runAtomically(db, () => {
        insert(1);
        return 7;
      }),
    ).toBe(7);
    expect(() =>
      runAtomically(db, () => {
        insert(2);
        throw new Error("no");
      }),
    ).toThrow("no");
    expect(values()).toEqual([1]);
    expect(db.inTransaction).toBe(false);
  });

  it("keeps asynchronous work in one transaction across its awaits; a rejection undoes it all", async () => {
    const { db, insert, values, tick } = setup();
    await expect(
      runAtomically(db, async () => {
        insert(1);
        await tick();
        expect(db.inTransaction).toBe(true);
        insert(2);
        return "ok";
      }),
    ).resolves.toBe("ok");
    await expect(
      runAtomically(db, async () => {
        insert(3);
        await tick();
        insert(4);
        throw new Error("late");
      }),
    ).rejects.toThrow("late");
    expect(values()).toEqual([1, 2]);
    expect(db.inTransaction).toBe(false);
  });

  it("queues a second asynchronous unit behind the open one; a nested unit is a savepoint", async () => {
    const { db, insert, values, tick } = setup();
    const order: string[] = [];
    const first = runAtomically(db, async () => {
      order.push("first:start");
      insert(1);
      await tick();
      // Nested in the same async context: a savepoint whose failure undoes only itself.
      await runAtomically(db, async () => {
        insert(99);
        await tick();
        throw new Error("inner");
      }).catch(() => undefined);
      await tick();
      order.push("first:end");
    });
    const second = runAtomically(db, async () => {
      order.push("second:start");
      insert(2);
    });
    await Promise.all([first, second]);
    expect(order).toEqual(["first:start", "first:end", "second:start"]);
    expect(values()).toEqual([1, 2]);
    expect(db.inTransaction).toBe(false);
  });

  it("a unit queued behind a failed one still runs", async () => {
    const { db, insert, values } = setup();
    const failed = runAtomically(db, async () => {
      insert(1);
      throw new Error("first fails");
    });
    const next = runAtomically(db, async () => insert(2));
    await expect(failed).rejects.toThrow("first fails");
    await next;
    expect(values()).toEqual([2]);
  });
});
