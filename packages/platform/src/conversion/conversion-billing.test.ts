/**
 * An async conversion bills its pages exactly once per task (decision PG190): a worker killed
 * between billing and storing the result, and two workers that both ran the task because one
 * lost its lease, each leave the task's pages counted once. On both stores (test-store.ts).
 */
import type { Job, JobContext } from "@groundwork/core";
import type { ConversionTaskInput } from "@groundwork/store-sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import type { PlatformStore } from "../store-port.js";
import { ConversionService } from "./conversion-service.js";

/** The month every test bills into (the service's callback is given the period by the billing service). */
const PERIOD = 0;

let ORG = "";
let store: PlatformStore;
let services: ConversionService[] = [];

/** Two documents without pages: the task counts 2. */
const inputs: ConversionTaskInput[] = ["one.md", "two.md"].map((filename) => ({
  kind: "bytes",
  filename,
  mimeType: null,
  content: new TextEncoder().encode(`# ${filename}\n\nSome text.`),
}));

function serviceOn(on: PlatformStore): ConversionService {
  const service = new ConversionService(on, {
    vision: null,
    vlmUnavailableMessage: "no vision model here",
    tessdataDir: null,
    allowPrivateNetwork: false,
    allowPrivateNetworkSetting: "ALLOW_PRIVATE",
    fetchTimeoutMs: 5_000,
    maxFetchBytes: 1_000_000,
    leaseMs: 5_000,
    pollMs: 5,
    recordPages: async (organizationId, pages) => await on.billing.recordPages(organizationId, PERIOD, pages),
  });
  services.push(service);
  return service;
}

async function billedPages(): Promise<number> {
  return await store.billing.pagesSince(ORG, PERIOD);
}

/** Submits a task (its worker not started) and answers the job a worker would claim. */
async function submitted(service: ConversionService): Promise<Job> {
  const task = await service.submit(ORG, inputs, {});
  const job = await store.jobs.get(task.jobId as string);
  if (job === null) throw new Error("the task has no job");
  return job;
}

function taskOf(job: Job): string {
  return (job.payload as { taskId: string }).taskId;
}

function context(): { controller: AbortController; context: JobContext } {
  const controller = new AbortController();
  return { controller, context: { signal: controller.signal } };
}

beforeEach(async () => {
  store = await openTestStore({ secret: "conversion-billing-secret" });
  ORG = (await store.organizations.create("acme", "enterprise")).id;
  services = [];
});
afterEach(async () => {
  for (const service of services) await service.close();
  await store.close();
});

describe("an async conversion's pages", () => {
  it("are billed once when the task runs once", async () => {
    const service = serviceOn(store);
    const job = await submitted(service);
    expect(await service.handle(job, context().context)).toEqual({ status: "SUCCESS" });
    expect(await billedPages()).toBe(2);
  });

  it("are billed once when the worker dies between billing and storing the result, and the job runs again", async () => {
    // The first worker's store: storing the result fails as the process dies (its lease is lost).
    const first = context();
    let killed = false;
    const dying: PlatformStore = {
      ...store,
      conversionTasks: new Proxy(store.conversionTasks, {
        get(target, property, receiver) {
          if (property === "finish" && !killed) {
            return async () => {
              killed = true;
              first.controller.abort(new Error("worker killed"));
              throw new Error("worker killed");
            };
          }
          const value = Reflect.get(target, property, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        },
      }),
    };
    const job = await submitted(serviceOn(store));
    await expect(serviceOn(dying).handle(job, first.context)).rejects.toThrow("worker killed");
    expect(killed).toBe(true);
    // Nothing the dead worker wrote in its unit stayed: no result, no pages.
    expect((await store.conversionTasks.get(taskOf(job)))?.status).toBe("processing");
    expect(await billedPages()).toBe(0);

    // The retry on another worker after the lease.
    expect(await serviceOn(store).handle(job, context().context)).toEqual({ status: "SUCCESS" });
    expect((await store.conversionTasks.get(taskOf(job)))?.status).toBe("success");
    expect(await billedPages()).toBe(2);
  });

  it("are billed once when two workers ran the same task (one lost its lease mid-task)", async () => {
    const job = await submitted(serviceOn(store));
    const taskId = taskOf(job);
    const claimed = await store.conversionTasks.get(taskId);
    const claimedInputs = await store.conversionTasks.inputs(taskId);
    // Worker A claimed the task and stalled past its lease; worker B took the job over and finished it.
    expect(await serviceOn(store).handle(job, context().context)).toEqual({ status: "SUCCESS" });
    expect(await billedPages()).toBe(2);
    // A wakes up: it had started the task and still sees it running, converts, and stores last.
    const stale: PlatformStore = {
      ...store,
      conversionTasks: new Proxy(store.conversionTasks, {
        get(target, property, receiver) {
          if (property === "get") return async () => claimed;
          if (property === "start") return async () => true;
          // It read the documents before B's result dropped them.
          if (property === "inputs") return async () => claimedInputs;
          const value = Reflect.get(target, property, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        },
      }),
    };
    expect(await serviceOn(stale).handle(job, context().context)).toEqual({ status: "SUCCESS" });
    expect(await billedPages()).toBe(2);
  });

  it("are not billed for a task canceled while it ran", async () => {
    const service = serviceOn(store);
    const job = await submitted(service);
    const task = await store.conversionTasks.get(taskOf(job));
    if (task === null) throw new Error("no task");
    // The cancel lands after the worker's start but before its result is stored.
    const late: PlatformStore = {
      ...store,
      conversionTasks: new Proxy(store.conversionTasks, {
        get(target, property, receiver) {
          if (property === "finish") {
            return async (...args: Parameters<typeof target.finish>) => {
              await service.cancel(task);
              return await target.finish(...args);
            };
          }
          const value = Reflect.get(target, property, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        },
      }),
    };
    await serviceOn(late).handle(job, context().context);
    expect((await store.conversionTasks.get(task.id))?.error).toBe("canceled");
    expect(await billedPages()).toBe(0);
  });
});
