/** The plugins contract on SQLite (the reference), PGlite and a real PostgreSQL server. */
import { openSqlite, postgresBackend } from "../test/families/family-fixture.js";
import { describePluginsContract } from "../test/families/plugins-contract.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { PostgresPluginStore } from "./postgres-plugins.js";

describePluginsContract("SQLite", async (clock) => {
  const { store, backend, close } = openSqlite(clock);
  return { family: store.plugins, backend, close };
});

for (const backend of postgresBackends("plugins")) {
  describePluginsContract(backend.label, async (clock) => ({
    family: new PostgresPluginStore(backend.client(), clock),
    backend: postgresBackend(backend.client(), clock),
    close: () => {},
  }));
}
