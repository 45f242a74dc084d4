/** The bash files contract on SQLite (the reference, a file so a second connection sees it), PGlite and a real PostgreSQL server. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../store-sqlite/src/open-store.js";
import { describeBashFilesContract } from "../test/families/bash-files-contract.js";
import { openSqlite, postgresBackend } from "../test/families/family-fixture.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { PostgresBashFileStore } from "./postgres-bash-files.js";

describeBashFilesContract("SQLite", async (clock) => {
  const dir = mkdtempSync(join(tmpdir(), "gw-bash-"));
  const file = join(dir, "store.db");
  const { store, backend, close } = openSqlite(clock, file);
  const second = openStore({ file, clock });
  return {
    family: store.bashFiles,
    backend,
    another: () => second.bashFiles,
    close: () => {
      second.close();
      close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

for (const backend of postgresBackends("bash_files")) {
  describeBashFilesContract(backend.label, async (clock) => ({
    family: new PostgresBashFileStore(backend.client(), clock),
    backend: postgresBackend(backend.client(), clock),
    another: () => new PostgresBashFileStore(backend.client(), clock),
    close: () => {},
  }));
}
