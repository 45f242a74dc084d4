/**
 * The usage, analytics, billing and traces families' contracts on the SQLite store (the
 * reference) and on PostgreSQL (PGlite and a real server, one migrated database each for the
 * file, with stand-ins for the tables other families own; every test works in fresh
 * organizations).
 */
import { beforeAll } from "vitest";
import { describeAnalyticsContract } from "../test/families/analytics-contract.js";
import { describeBillingContract } from "../test/families/billing-contract.js";
import { createStandInTables } from "../test/families/stand-in-tables.js";
import { describeTracesContract } from "../test/families/traces-contract.js";
import { postgresArea, sqliteArea } from "../test/families/usage-area-backend.js";
import { describeUsageContract } from "../test/families/usage-contract.js";
import { postgresBackends } from "../test/postgres-backends.js";

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
