/**
 * The usage, analytics, billing and traces families' contracts on the SQLite store (the
 * reference) and on PostgreSQL (PGlite and a real server, one migrated database each for the
 * file; every test works in fresh organizations).
 */

import { postgresArea, sqliteArea } from "../test/families/usage-area-backend.js";
import { describeUsageContract } from "../test/families/usage-contract.js";
import { postgresBackends } from "../test/postgres-backends.js";

const backends = postgresBackends("usage_area");

describeUsageContract("SQLite", sqliteArea);
for (const backend of backends) {
  describeUsageContract(backend.label, postgresArea(backend.client));
}
