/**
 * The tenants-and-documents families' contracts (test/families) on the SQLite store, the
 * reference, and on PostgreSQL through `openPostgresStore` (PGlite and the run's real server).
 */
import { bool } from "@groundwork/store-rows";
import { describe } from "vitest";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { describeConversionTasksContract } from "../test/families/conversion-tasks-contract.js";
import { describeExtractionsContract } from "../test/families/extractions-contract.js";
import { describeFilesContract } from "../test/families/files-contract.js";
import { describeOrganizationsContract } from "../test/families/organizations-contract.js";
import { describeProvidersContract } from "../test/families/providers-contract.js";
import { describeStoredResponsesContract } from "../test/families/stored-responses-contract.js";
import { TEST_SECRET, type TestClock } from "../test/families/tenants-documents-harness.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { openPostgresStore } from "./open-postgres-store.js";

/** The quality columns as either store keeps them (0/1 on SQLite, BOOLEAN on PostgreSQL). */
interface QualityRow {
  confidence: number | null;
  flag_count: number | null;
  validation_applied: number | boolean | null;
  violation_count: number | null;
  quality_computed: number | boolean;
}

function toQuality(row: QualityRow) {
  return {
    confidence: row.confidence,
    flagCount: row.flag_count,
    validationApplied: row.validation_applied === null ? null : bool(row.validation_applied),
    violationCount: row.violation_count,
    computed: bool(row.quality_computed),
  };
}

{
  // One in-memory database per test: a fresh store, as a PostgreSQL backend is fresh per test file.
  let last: ReturnType<typeof openStore> | undefined;
  const open = async (clock: TestClock) => {
    last?.close();
    last = openStore({ file: ":memory:", clock, secret: TEST_SECRET });
    return last;
  };
  const sealedKey = async (id: string) =>
    (
      last?.db.prepare("SELECT api_key_encrypted FROM providers WHERE id = ?").get(id) as
        | { api_key_encrypted: string | null }
        | undefined
    )?.api_key_encrypted ?? null;
  const quality = async (id: string) => {
    const row = last?.db
      .prepare(
        "SELECT confidence, flag_count, validation_applied, violation_count, quality_computed FROM extractions WHERE id = ?",
      )
      .get(id) as QualityRow;
    return toQuality(row);
  };
  describe("SQLite (reference)", () => {
    describeOrganizationsContract("SQLite", open);
    describeProvidersContract("SQLite", open, sealedKey);
    describeFilesContract("SQLite", open);
    describeConversionTasksContract("SQLite", open);
    describeStoredResponsesContract("SQLite", open);
    describeExtractionsContract("SQLite", open, quality);
  });
}

for (const backend of postgresBackends("tenants_documents")) {
  // The store owns its client and closes it; the backend's client is shared by the file's tests.
  const open = (clock: TestClock) =>
    openPostgresStore({ client: { ...backend.client(), close: async () => {} }, clock, secret: TEST_SECRET });
  const sealedKey = async (id: string) => {
    const { rows } = await backend
      .client()
      .query<{ api_key_encrypted: string | null }>("SELECT api_key_encrypted FROM providers WHERE id = $1", [
        id,
      ]);
    return rows[0]?.api_key_encrypted ?? null;
  };
  const quality = async (id: string) => {
    const { rows } = await backend
      .client()
      .query<QualityRow>(
        "SELECT confidence, flag_count, validation_applied, violation_count, quality_computed FROM extractions WHERE id = $1",
        [id],
      );
    return toQuality(rows[0] as QualityRow);
  };
  describe(backend.label, () => {
    describeOrganizationsContract(backend.label, open);
    describeProvidersContract(backend.label, open, sealedKey);
    describeFilesContract(backend.label, open);
    describeConversionTasksContract(backend.label, open);
    describeStoredResponsesContract(backend.label, open);
    describeExtractionsContract(backend.label, open, quality);
  });
}
