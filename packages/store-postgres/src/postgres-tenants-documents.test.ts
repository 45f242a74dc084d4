/**
 * The tenants-and-documents families' contracts (test/families) on the SQLite store, the
 * reference, and on PostgreSQL through `openPostgresStore` (PGlite and the run's real server).
 */
import { describe } from "vitest";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { describeConversionTasksContract } from "../test/families/conversion-tasks-contract.js";
import { describeFilesContract } from "../test/families/files-contract.js";
import { describeOrganizationsContract } from "../test/families/organizations-contract.js";
import { describeProvidersContract } from "../test/families/providers-contract.js";
import { describeStoredResponsesContract } from "../test/families/stored-responses-contract.js";
import { TEST_SECRET, type TestClock } from "../test/families/tenants-documents-harness.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { openPostgresStore } from "./open-postgres-store.js";

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
  describe("SQLite (reference)", () => {
    describeOrganizationsContract("SQLite", open);
    describeProvidersContract("SQLite", open, sealedKey);
    describeFilesContract("SQLite", open);
    describeConversionTasksContract("SQLite", open);
    describeStoredResponsesContract("SQLite", open);
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
  describe(backend.label, () => {
    describeOrganizationsContract(backend.label, open);
    describeProvidersContract(backend.label, open, sealedKey);
    describeFilesContract(backend.label, open);
    describeConversionTasksContract(backend.label, open);
    describeStoredResponsesContract(backend.label, open);
  });
}
