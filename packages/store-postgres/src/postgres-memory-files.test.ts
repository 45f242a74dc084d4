/** The memory files contract on SQLite (the reference), PGlite and a real PostgreSQL server. */

import { openSqlite, postgresBackend } from "../test/families/family-fixture.js";
import { describeMemoryFilesContract } from "../test/families/memory-files-contract.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { PostgresMemoryFileStore } from "./postgres-memory-files.js";

describeMemoryFilesContract("SQLite", async (clock) => {
  const { store, backend, close } = openSqlite(clock);
  return { family: store.memoryFiles, backend, close };
});

for (const backend of postgresBackends("memory_files")) {
  describeMemoryFilesContract(backend.label, async (clock) => ({
    family: new PostgresMemoryFileStore(backend.client(), clock),
    backend: postgresBackend(backend.client(), clock),
    close: () => {},
  }));
}
