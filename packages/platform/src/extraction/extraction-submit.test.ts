/**
 * A background extraction's submission answers the PENDING record it queued, even when a worker
 * (another process, woken by the queue's NOTIFY: decision PG192) started or finished the job before
 * the submission answered: the caller asked for a background run (`202`), not for its state.
 */
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";
import { ExtractionService } from "./extraction-service.js";

const MODEL = "gw-chat-1";

let upstream: Upstream;
let store: PlatformStore;
let groundwork: Groundwork;
let schemaId = "";

beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: [MODEL] });
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(async () => {
  upstream.reset();
  store = await openTestStore({ secret: "extraction-submit-secret" });
  groundwork = createGroundwork({ store, config: { builtin: { baseUrl: upstream.url, apiKey: "sk-b" } } });
  const schema = await groundwork.schemas.create((await groundwork.principal()).organizationId, {
    name: "Invoice",
  });
  await store.schemas.commitVersion(schema.id, {
    jsonSchema: { type: "object", properties: { vendor: { type: "string" } } },
  });
  schemaId = schema.id;
});
afterEach(async () => {
  await groundwork.close();
  await store.close();
});

it("answers PENDING with its job although another worker already took the job", async () => {
  // Another process's worker claims and starts the extraction as soon as its job is attached.
  const racing: PlatformStore = {
    ...store,
    extractions: new Proxy(store.extractions, {
      get(target, property, receiver) {
        if (property === "attachJob") {
          return async (id: string, jobId: string) => {
            await target.attachJob(id, jobId);
            await target.markProcessing(id);
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }),
  };
  const service = new ExtractionService(racing, groundwork.gateway, { pollMs: 60_000, leaseMs: 5_000 });
  const principal = await groundwork.principal();
  const record = await service.extract(principal, {
    schemaId,
    model: MODEL,
    inputText: "Invoice INV-7 from Velvet Umbrellas Ltd",
    background: true,
  });
  expect(record.status).toBe("PENDING");
  expect(record.jobId).not.toBeNull();
  expect((await store.extractions.get(principal.organizationId, record.id))?.status).toBe("PROCESSING");
  await service.stopWorker();
});
