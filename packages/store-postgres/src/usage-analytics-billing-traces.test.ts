/**
 * The usage, analytics, billing and traces families' contracts on the SQLite store (the
 * reference) and on PostgreSQL (PGlite and a real server, one migrated database each for the
 * file, with stand-ins for the tables other families own; every test works in fresh
 * organizations).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { describeAnalyticsContract } from "../test/families/analytics-contract.js";
import { describeBillingContract } from "../test/families/billing-contract.js";
import { postgresOrganization } from "../test/families/family-fixture.js";
import { createStandInTables } from "../test/families/stand-in-tables.js";
import { describeTracesContract } from "../test/families/traces-contract.js";
import { postgresArea, sqliteArea } from "../test/families/usage-area-backend.js";
import { describeUsageContract, usageEvent } from "../test/families/usage-contract.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { PostgresUsageRecordStore } from "./postgres-usage-records.js";

const backends = postgresBackends("usage_area");
beforeAll(async () => {
  for (const backend of backends) await createStandInTables(backend.client());
});

const runs = [
  { label: "SQLite", open: sqliteArea },
  ...backends.map((backend) => ({ label: backend.label, open: postgresArea(backend.client) })),
];
for (const { label, open } of runs) {
  describeUsageContract(label, open);
  describeBillingContract(label, open);
  describeTracesContract(label, open);
  describeAnalyticsContract(label, open);
}

describe("usage rollups under concurrent writers (PostgreSQL)", () => {
  for (const backend of backends) {
    it(`stay equal to a recount when two stores write batches of the same hours at once (${backend.label})`, async () => {
      const client = backend.client();
      const organizationId = await postgresOrganization(client);
      const clock = { now: () => Date.UTC(2026, 10, 2, 10) + Math.floor(Math.random() * 3 * 3_600_000) };
      const writers = [
        new PostgresUsageRecordStore(client, clock),
        new PostgresUsageRecordStore(client, clock),
      ];
      // Each writer's batches name the models in opposite orders: without key-ordered upserts the
      // two transactions would lock rollup rows in opposite orders.
      await Promise.all(
        writers.map(async (writer, w) => {
          for (let batch = 0; batch < 10; batch++) {
            for (let i = 0; i < 60; i++) {
              const model = `m${w === 0 ? i % 6 : 5 - (i % 6)}`;
              await writer.record(
                usageEvent(organizationId, { model, latencyMs: i * 7, outcome: i % 9 ? "ok" : "error" }),
              );
            }
            await writer.flush();
          }
        }),
      );
      await Promise.all(writers.map((writer) => writer.close()));
      const recount = await client.query(
        `SELECT created_at - created_at % 3600000 AS hour, model, count(*) AS requests,
             count(*) FILTER (WHERE outcome = 'error') AS errors, sum(prompt_tokens) AS prompt
           FROM usage_records WHERE organization_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
        [organizationId],
      );
      const rollup = await client.query(
        `SELECT hour, model, sum(requests) AS requests, sum(errors) AS errors, sum(prompt_tokens) AS prompt
           FROM usage_hourly WHERE organization_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
        [organizationId],
      );
      const daily = await client.query<{ n: string }>(
        "SELECT sum(requests) AS n FROM usage_latency_daily WHERE organization_id = $1",
        [organizationId],
      );
      const normal = (rows: Array<Record<string, unknown>>) =>
        rows.map((row) => Object.values(row).map((value) => String(value)));
      expect(normal(rollup.rows)).toEqual(normal(recount.rows));
      expect(Number(daily.rows[0]?.n)).toBe(1_200);
    });
  }
});
