/**
 * The contracts of schemas, skills and experiments on the SQLite store — the reference: a
 * contract that fails there is wrong — and on PGlite and a real PostgreSQL server
 * (test/postgres-backends.ts); and the migration runner applying a reserved version below the
 * database's highest.
 */
import { PGlite } from "@electric-sql/pglite";
import type { JobQueue } from "@groundwork/core";
import { CredentialCipher, type TraceSpanInput } from "@groundwork/store-rows";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { addToTotals } from "../../evaluation/src/experiments/run-aggregates.js";
import type { ExperimentStore } from "../../store-sqlite/src/experiments.js";
import type { Store } from "../../store-sqlite/src/open-store.js";
import type { SchemaStore } from "../../store-sqlite/src/schemas.js";
import type { SkillStore } from "../../store-sqlite/src/skills.js";
import { describeExperimentContract, type ExperimentHarness } from "../test/families/experiments-contract.js";
import { freshId } from "../test/families/family-fixture.js";
import { onPostgres, onSqlite } from "../test/families/family-harness.js";
import { describeSchemaContract } from "../test/families/schemas-contract.js";
import { describeSkillContract } from "../test/families/skills-contract.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { createTestDatabase } from "../test/test-database.js";
import { postgresMigrations, runPostgresMigrations } from "./migrations.js";
import { PostgresExperimentStore } from "./postgres-experiments.js";
import { PostgresJobQueue } from "./postgres-job-queue.js";
import { PostgresSchemaStore } from "./postgres-schemas.js";
import { PostgresSkillStore } from "./postgres-skills.js";
import { PostgresTraceStore } from "./postgres-traces.js";
import { fromPGlite, fromPgPool, type PGliteLike } from "./sql-client.js";

const backends = postgresBackends("schemas_skills_experiments");

describeSchemaContract(
  "SQLite",
  onSqlite((store) => store.schemas),
);
for (const backend of backends) {
  describeSchemaContract(
    backend.label,
    onPostgres<SchemaStore>(backend, (client, clock, ids) => new PostgresSchemaStore(client, clock, ids)),
  );
}

describeSkillContract(
  "SQLite",
  onSqlite((store) => store.skills),
);
for (const backend of backends) {
  describeSkillContract(
    backend.label,
    onPostgres<SkillStore>(backend, (client, clock, ids) => new PostgresSkillStore(client, clock, ids)),
  );
}

/** A job the queue failed for good (one attempt, permanent failure). */
async function failedJob(jobs: JobQueue, organizationId: string, error: string): Promise<string> {
  const kind = freshId("kind");
  const job = await jobs.enqueue(kind, {}, { organizationId, maxAttempts: 1 });
  if ((await jobs.claim([kind], "worker", 60_000))?.id !== job.id) throw new Error("the job was not claimed");
  await jobs.fail(job.id, "worker", error, { permanent: true });
  return job.id;
}

/** The root span of an `experiment` trace. */
function experimentSpan(organizationId: string, otelTraceId: string): TraceSpanInput {
  return {
    organizationId,
    traceRecordId: freshId("trc"),
    traceId: otelTraceId,
    spanId: "0123456789abcdef",
    parentSpanId: null,
    name: "experiment_item e",
    startTime: 1_767_225_600_000,
    endTime: 1_767_225_600_010,
    durationMs: 10,
    status: "ok",
    statusMessage: null,
    attributes: { "groundwork.trace.kind": "experiment" },
  };
}

describeExperimentContract("SQLite", async (): Promise<ExperimentHarness> => {
  let store: Store | undefined;
  const harness = await onSqlite((opened) => {
    store = opened;
    return opened.experiments;
  })();
  const sqlite = store as Store;
  return {
    ...harness,
    failedJob: (organizationId, error) => failedJob(sqlite.jobs, organizationId, error),
    experimentTrace: async (organizationId, otelTraceId) => {
      const span = experimentSpan(organizationId, otelTraceId);
      sqlite.traces.write([span]);
      return span.traceRecordId;
    },
  };
});
for (const backend of backends) {
  describeExperimentContract(backend.label, async (): Promise<ExperimentHarness> => {
    const harness = await onPostgres<ExperimentStore>(
      backend,
      (client, clock, ids) => new PostgresExperimentStore(client, clock, ids),
    )();
    const client = backend.client();
    return {
      ...harness,
      failedJob: (organizationId, error) =>
        failedJob(new PostgresJobQueue(client, harness.clock), organizationId, error),
      experimentTrace: async (organizationId, otelTraceId) => {
        const span = experimentSpan(organizationId, otelTraceId);
        await new PostgresTraceStore(client, new CredentialCipher(null), harness.clock).write([span]);
        return span.traceRecordId;
      },
    };
  });
}

describe("PostgreSQL migrations", () => {
  it("apply a version the database lacks even when it has higher ones (reserved numbers)", async () => {
    const client = fromPGlite((await PGlite.create()) as unknown as PGliteLike);
    try {
      const withoutSchemas = postgresMigrations.filter((migration) => migration.version !== 16);
      await runPostgresMigrations(client, withoutSchemas);
      expect((await client.query("SELECT to_regclass('schemas') AS t")).rows).toEqual([{ t: null }]);
      expect(await runPostgresMigrations(client)).toEqual([16]);
      expect(await runPostgresMigrations(client)).toEqual([]);
      expect((await client.query("SELECT to_regclass('schema_labels')::text AS t")).rows).toEqual([
        { t: "schema_labels" },
      ]);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("experiments across processes (real server)", () => {
  it("two processes recording one run's items at once, then racing a cancel: each item once, counters equal the results", async () => {
    const url = await createTestDatabase("experiments_race");
    const [one, two] = [0, 1].map(() => fromPgPool(new pg.Pool({ connectionString: url, max: 4 })));
    if (one === undefined || two === undefined) throw new Error("two pools");
    try {
      await runPostgresMigrations(one);
      const org = freshId("org");
      await one.query("INSERT INTO organizations (id, name, plan, created_at) VALUES ($1, $1, 'team', 0)", [
        org,
      ]);
      const stores = [new PostgresExperimentStore(one), new PostgresExperimentStore(two)];
      const [a, b] = stores as [PostgresExperimentStore, PostgresExperimentStore];
      const experiment = await a.create(org, {
        name: "race",
        description: null,
        datasetId: "ds",
        datasetVersionId: null,
        evaluators: [],
      });
      const variant = await a.addVariant(experiment.id, { name: "v", kind: "model", config: {} });
      const startRun = async () => {
        const run = await a.createRun({
          organizationId: org,
          experimentId: experiment.id,
          variant,
          evaluators: [],
          datasetId: "ds",
          datasetVersionId: "dsv",
          total: 30,
          role: "member",
          createdByKeyId: null,
        });
        await b.markRunning(run.id);
        return run;
      };
      const item = (runId: string, position: number) => ({
        organizationId: org,
        runId,
        datasetItemId: `dsi_${position}`,
        position,
        status: "completed" as const,
        input: position,
        expectedOutput: null,
        output: "x",
        error: null,
        latencyMs: 1,
        usage: { inputTokens: 1, outputTokens: 1, costEur: 0.5 },
        otelTraceId: null,
        scores: [{ name: "s", value: position % 3, passed: position % 2 === 0, comment: null, error: null }],
      });
      const recount = async (runId: string) => {
        const rows = (
          await one.query<{ n: string; s: string }>(
            `SELECT count(*) AS n, coalesce(sum(position % 3), 0) AS s FROM experiment_run_results WHERE run_id = $1`,
            [runId],
          )
        ).rows[0];
        return { results: Number(rows?.n), sum: Number(rows?.s) };
      };

      // Both processes record every item of the run at once: each item is recorded exactly once.
      const run = await startRun();
      const recorded = await Promise.all(
        Array.from({ length: 30 }, (_, position) =>
          stores.map((store) => store.addResult(item(run.id, position), addToTotals)),
        ).flat(),
      );
      expect(recorded.filter((each) => each !== null)).toHaveLength(30);
      const counted = await a.runById(run.id);
      expect(counted).toMatchObject({
        completed: 30,
        usage: { inputTokens: 30, outputTokens: 30, costEur: 15 },
      });
      expect(counted?.scoreSums.s).toEqual({ sum: (await recount(run.id)).sum, count: 30, passed: 15 });

      // A cancel racing the recording: no result lands after it, the counters equal the results.
      const cancelled = await startRun();
      const writes = Array.from({ length: 30 }, (_, position) =>
        (position % 2 === 0 ? a : b).addResult(item(cancelled.id, position), addToTotals),
      );
      const [won, lost] = await Promise.all([
        a.finishRun(cancelled.id, "cancelled"),
        b.finishRun(cancelled.id, "cancelled"),
      ]);
      expect([won, lost].filter(Boolean)).toHaveLength(1);
      const landed = (await Promise.all(writes)).filter((each) => each !== null).length;
      const after = await a.runById(cancelled.id);
      expect(after?.status).toBe("cancelled");
      expect(after?.completed).toBe(landed);
      expect((await recount(cancelled.id)).results).toBe(landed);
      expect(await b.addResult(item(cancelled.id, 99), addToTotals)).toBeNull();
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  }, 120_000);
});
