/**
 * Open connector questions belong to the process that asked (decision PG191): the start of
 * another process leaves them open while their owner renews its lease; a question of a process
 * that stopped renewing (it died), of an earlier run of this process, or asked before owners were
 * recorded is answered `cancel` — at start, or by the sweep once the lease lapses. Two "processes"
 * are two services with their own process ids, each on its own store of one database.
 */
import type { Clock } from "@groundwork/core";
import type { NewInputRequest, QuestionOwner } from "@groundwork/store-sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/test-database.js";
import type { PlatformStore } from "../store-port.js";
import { ConnectorService } from "./connector-service.js";

const LEASE_MS = 30_000;

let now = 1_000_000;
const clock: Clock = { now: () => now };

let database: TestDatabase;
const stores: PlatformStore[] = [];
const services: ConnectorService[] = [];
let ORG = "";

async function openStore(): Promise<PlatformStore> {
  const store = await database.open({ clock });
  stores.push(store);
  return store;
}

/** A process's connector service on a store of its own. */
async function processNamed(processId: string): Promise<{ store: PlatformStore; service: ConnectorService }> {
  const store = await openStore();
  const service = new ConnectorService(store, {
    pauseTimeoutMs: 3_600_000,
    questionLeaseMs: LEASE_MS,
    processId,
    clock,
  });
  services.push(service);
  return { store, service };
}

/** A question as `execute` records it for the process `owner` (undefined: before owners were recorded). */
async function question(store: PlatformStore, owner?: QuestionOwner): Promise<string> {
  const input: NewInputRequest = {
    organizationId: ORG,
    memberId: "key_member",
    responseId: "resp_1",
    connectorId: null,
    serverLabel: "files",
    tool: "files__ask",
    callId: "c1",
    mode: "form",
    message: "Which folder?",
    requestedSchema: { type: "object", properties: {} },
    url: null,
    expiresAt: now + 3_600_000,
  };
  return (await store.connectors.createInput(input, owner)).id;
}

async function statusOf(store: PlatformStore, id: string): Promise<string | undefined> {
  return (await store.connectors.getInput(ORG, id))?.status;
}

beforeEach(async () => {
  now = 1_000_000;
  database = await openTestDatabase();
  ORG = (await (await openStore()).organizations.create("acme", "enterprise")).id;
});
afterEach(async () => {
  for (const service of services.splice(0)) await service.stop();
  for (const store of stores.splice(0)) await store.close();
  await database.remove();
});

describe("open connector questions of several processes", () => {
  it("a process that starts leaves another live process's question open", async () => {
    const a = await processNamed("prc_a");
    const id = await question(a.store, { id: "prc_a", expiresAt: now + LEASE_MS });
    const b = await processNamed("prc_b");
    expect(await b.service.start()).toBe(0);
    expect(await statusOf(b.store, id)).toBe("open");
  });

  it("a question whose process stopped renewing is cancelled once its lease lapsed, by a start or a sweep", async () => {
    const a = await processNamed("prc_a");
    const lapsed = await question(a.store, { id: "prc_a", expiresAt: now + LEASE_MS });
    const b = await processNamed("prc_b");
    await b.service.start();
    expect(await statusOf(b.store, lapsed)).toBe("open");
    // A renews while it lives …
    now += LEASE_MS - 1;
    await a.store.connectors.renewInputs([lapsed], now + LEASE_MS);
    now += LEASE_MS - 1;
    expect(await b.service.sweep()).toBe(0);
    expect(await statusOf(b.store, lapsed)).toBe("open");
    // … then dies: the next sweep after its lease answers the question cancel.
    now += 2;
    expect(await b.service.sweep()).toBe(1);
    expect(await b.store.connectors.getInput(ORG, lapsed)).toMatchObject({
      status: "cancelled",
      action: "cancel",
    });
    // A process starting after the lapse cancels at once.
    const dead = await question(a.store, { id: "prc_a", expiresAt: now - 1 });
    const c = await processNamed("prc_c");
    expect(await c.service.start()).toBe(1);
    expect(await statusOf(c.store, dead)).toBe("cancelled");
  });

  it("a restart cancels its earlier run's questions at once, and those asked before owners were recorded", async () => {
    const before = await processNamed("prc_a");
    const earlier = await question(before.store, { id: "prc_a", expiresAt: now + LEASE_MS });
    const legacy = await question(before.store);
    const other = await question(before.store, { id: "prc_b", expiresAt: now + LEASE_MS });
    const restarted = await processNamed("prc_a");
    expect(await restarted.service.start()).toBe(2);
    expect(await statusOf(restarted.store, earlier)).toBe("cancelled");
    expect(await statusOf(restarted.store, legacy)).toBe("cancelled");
    expect(await statusOf(restarted.store, other)).toBe("open");
  });

  it("renewing touches only open questions", async () => {
    const a = await processNamed("prc_a");
    const answered = await question(a.store, { id: "prc_a", expiresAt: now + LEASE_MS });
    await a.store.connectors.closeInput(answered, "answered", { action: "decline", content: null });
    await a.store.connectors.renewInputs([answered], now + 10 * LEASE_MS);
    now += LEASE_MS + 1;
    expect(await a.store.connectors.orphanedInputs(now, null)).toEqual([]);
    expect(await statusOf(a.store, answered)).toBe("answered");
  });
});
