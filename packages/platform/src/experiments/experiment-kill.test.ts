/**
 * kill -9 during a run (PLATFORM.md §11 durability, decision EX5): a real child process on a
 * database it opens itself (a SQLite file or a PostgreSQL URL) runs an experiment and is killed with SIGKILL mid-run; the run is then resumed
 * in this process. No finished result is lost, none is recorded twice, and the run completes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createFastFetch } from "@groundwork/gateway";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answeringModel, seedDataset } from "../../test/experiment-fixture.js";
import { openTestDatabase } from "../../test/test-database.js";
import { createGroundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";

const ITEMS = 60;
const CHILD = fileURLToPath(new URL("../../test/experiment-child.ts", import.meta.url));

let upstream: Upstream;
let child: ChildProcess | null = null;

beforeAll(async () => {
  // Slow enough answers that the kill lands mid-run.
  upstream = await startOpenAIUpstream({
    handler: (request) => ({ ...answeringModel(request), delayMs: 15 }),
  });
});
afterAll(async () => {
  child?.kill("SIGKILL");
  await upstream.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(20);
  }
}

describe("an experiment run killed with SIGKILL", () => {
  it("resumes in another process without losing or duplicating a result", async () => {
    const database = await openTestDatabase();
    let store: PlatformStore = await database.open();
    const setup = createGroundwork({ store });
    const principal = await setup.principal("acme", "member");
    const { dataset } = await seedDataset(setup, principal, ITEMS);
    const experiment = await setup.experiments.create(principal, {
      name: "durable",
      datasetId: dataset.id,
      evaluators: [{ type: "exact_match" }],
    });
    await setup.experiments.addVariant(principal, experiment.id, {
      name: "good",
      kind: "model",
      model: "good-1",
    });
    const [run] = await setup.experiments.startRuns(principal, experiment.id);
    const runId = run?.id ?? "";
    await setup.close();

    child = spawn(process.execPath, ["--import", "tsx", CHILD, database.location, upstream.url], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const results = async () => (await store.experiments.resultItemIds(runId)).size;
    await waitFor(async () => (await results()) >= 15, 60_000);
    child.kill("SIGKILL");
    await new Promise((resolve) => child?.once("exit", resolve));
    child = null;
    const survived = (await store.experiments.listResults(runId, {}, { page: 0, size: 100 })).items;
    expect(survived.length).toBeGreaterThanOrEqual(15);
    expect(survived.length).toBeLessThan(ITEMS);
    expect((await store.experiments.runById(runId))?.status).toBe("running");
    await store.close();

    store = await database.open();
    const resumed = createGroundwork({
      store,
      config: { builtin: { baseUrl: upstream.url, apiKey: "k" }, workers: { leaseMs: 1000, pollMs: 20 } },
      fetch: createFastFetch(),
    });
    // The dead process's lease lapses after a second; then this process claims the job.
    for (let i = 0; i < 100 && (await store.experiments.runById(runId))?.status === "running"; i++) {
      await resumed.experimentRuns.drain();
      await sleep(100);
    }
    const final = await store.experiments.runById(runId);
    expect(final).toMatchObject({ status: "completed", completed: ITEMS, failed: 0 });
    const all = (await store.experiments.listResults(runId, {}, { page: 0, size: 100 })).items;
    expect(all).toHaveLength(ITEMS);
    expect(new Set(all.map((result) => result.datasetItemId)).size).toBe(ITEMS);
    expect(all.map((result) => result.input)).toEqual(Array.from({ length: ITEMS }, (_, i) => `q${i}`));
    // Every result finished before the kill is still there, unchanged.
    const byItem = new Map(all.map((result) => [result.datasetItemId, result]));
    for (const result of survived) expect(byItem.get(result.datasetItemId)?.id).toBe(result.id);
    expect(final?.scoreSums.exact_match).toEqual({ sum: ITEMS, count: ITEMS, passed: ITEMS });
    const scores = await resumed.scores.list(
      await resumed.principal("acme"),
      { subjectType: "run_result", name: "exact_match" },
      { page: 0, size: 1 },
    );
    expect(scores.total).toBe(ITEMS);
    await resumed.close();
    await store.close();
    await database.remove();
  }, 150_000);
});
