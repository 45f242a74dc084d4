/**
 * What the usage, analytics, billing and traces contracts run on: one store's families over a
 * clock the test moves, a way to make organizations, and a way to put rows into tables that
 * other families own (extractions, scores, files, …) so the cross-family reads can be checked.
 * `sqliteArea` is the reference; `postgresArea` builds the PostgreSQL families over one
 * migrated client (postgresBackends). Every method is awaited by the contracts, so the
 * synchronous SQLite families run the same tests.
 */
import type { Clock } from "@groundwork/core";
import type { KnowledgeWrites } from "../../../kb/test/kb-ports-contract.js";
import type { PlatformStore } from "../../../platform/src/store-port.js";
import { CredentialCipher } from "../../../store-sqlite/src/credential-cipher.js";
import { openStore } from "../../../store-sqlite/src/open-store.js";
import { PostgresAnalyticsStore } from "../../src/postgres-analytics.js";
import { PostgresBillingStore } from "../../src/postgres-billing.js";
import { PostgresKnowledgeStore } from "../../src/postgres-knowledge-store.js";
import { PostgresTraceStore } from "../../src/postgres-traces.js";
import { PostgresUsageRecordStore } from "../../src/postgres-usage-records.js";
import type { SqlClient } from "../../src/sql-client.js";
import { postgresOrganization } from "./family-fixture.js";

export interface AreaBackend {
  usage: Omit<PlatformStore["usage"], "close">;
  /** `atomically` is left out on PostgreSQL: the platform does not use it for analytics. */
  analytics: Omit<PlatformStore["analytics"], "atomically">;
  /** `atomically` is left out on PostgreSQL: the platform does not use it for billing. */
  billing: Omit<PlatformStore["billing"], "atomically">;
  /** `atomically` is left out on PostgreSQL: the platform does not use it for traces. */
  traces: Omit<PlatformStore["traces"], "atomically">;
  /** The knowledge-base writes (stored bytes count the newest revision of live documents). */
  knowledge: KnowledgeWrites;
  /** A fresh organization (a row: every tenant table references organizations on both stores). */
  organization(): Promise<string>;
  /** Inserts a row as it is (values: numbers, strings, null; booleans as 0/1, JSON as text). */
  insertRow(table: string, row: Record<string, unknown>): Promise<void>;
  /** Runs one statement without parameters that reads the same on both databases. */
  exec(statement: string): Promise<void>;
  /** Flushes queued writes and releases what the backend opened (not the shared PostgreSQL client). */
  close(): Promise<void>;
}

const SECRET = "contract-test-secret";

export type OpenArea = (clock: Clock) => Promise<AreaBackend>;

export const sqliteArea: OpenArea = async (clock) => {
  const store = openStore({ file: ":memory:", clock, secret: SECRET });
  let organizations = 0;
  return {
    usage: store.usage,
    analytics: store.analytics,
    billing: store.billing,
    traces: store.traces,
    knowledge: store.knowledgeBases,
    organization: async () => store.organizations.create(`org ${++organizations}`, "team").id,
    insertRow: async (table, row) => {
      const columns = Object.keys(row);
      store.db
        .prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)
        .run(...Object.values(row));
    },
    exec: async (statement) => {
      store.db.exec(statement);
    },
    close: async () => store.close(),
  };
};

export function postgresArea(client: () => SqlClient): OpenArea {
  return async (clock) => {
    const sql = client();
    const usage = new PostgresUsageRecordStore(sql, clock);
    return {
      usage,
      analytics: new PostgresAnalyticsStore(sql, usage, clock),
      billing: new PostgresBillingStore(sql, clock),
      traces: new PostgresTraceStore(sql, new CredentialCipher(SECRET), clock),
      knowledge: new PostgresKnowledgeStore(sql, clock),
      // A real organization row: every tenant table references it.
      organization: () => postgresOrganization(sql, clock),
      insertRow: async (table, row) => {
        const columns = Object.keys(row);
        await sql.query(
          `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
          Object.values(row),
        );
      },
      exec: (statement) => sql.exec(statement),
      close: () => usage.close(),
    };
  };
}
