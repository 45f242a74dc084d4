import { openStore, type Store } from "@groundwork/store-sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGroundwork } from "../src/create-groundwork.js";
import { asyncStore } from "./async-store.js";

let store: Store;
beforeEach(() => {
  store = openStore({ file: ":memory:" });
});
afterEach(() => store.close());

describe("the asynchronous store stand-in", () => {
  it("answers every port method with a Promise settled after an earlier macrotask, the call made then", async () => {
    const standIn = asyncStore(store);
    const order: string[] = [];
    setImmediate(() => order.push("earlier macrotask"));
    const answer = standIn.organizations.create("acme", "free");
    expect(answer).toBeInstanceOf(Promise);
    // Not called yet: nothing is in the database in this turn.
    expect(store.organizations.findByName("acme")).toBeNull();
    const created = await answer;
    order.push("store answered");
    expect(order).toEqual(["earlier macrotask", "store answered"]);
    expect(store.organizations.get(created.id)).toEqual(created);
  });

  it("rejects with what the store throws, and passes non-method members through", async () => {
    const standIn = asyncStore(store);
    await standIn.organizations.create("acme", "free");
    await expect(standIn.organizations.create("acme", "free")).rejects.toThrow();
    expect(standIn.traces.canSealHeaders).toBe(store.traces.canSealHeaders);
    await expect(standIn.ping()).resolves.toBeUndefined();
  });

  it("is one stand-in per store, never wrapped twice", () => {
    const standIn = asyncStore(store);
    expect(asyncStore(store)).toBe(standIn);
    expect(asyncStore(standIn)).toBe(standIn);
  });

  it("runs a Groundwork whose every store call is awaited", async () => {
    const groundwork = createGroundwork({ store: asyncStore(store) });
    const principal = await groundwork.principal("acme", "member");
    const dataset = await groundwork.datasets.create(principal, { name: "qa" });
    await groundwork.datasets.addItems(principal, dataset.id, {
      items: [{ input: "q", expectedOutput: "a" }],
    });
    const version = await groundwork.datasets.createVersion(principal, dataset.id);
    expect(version.itemCount).toBe(1);
    await groundwork.close();
  });
});
