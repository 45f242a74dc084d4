/** The agents contract on SQLite (the reference), PGlite and a real PostgreSQL server. */
import { describeAgentsContract } from "../test/families/agents-contract.js";
import { openSqlite, postgresBackend } from "../test/families/family-fixture.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { PostgresAgentStore } from "./postgres-agents.js";

describeAgentsContract("SQLite", async (clock) => {
  const { store, backend, close } = openSqlite(clock);
  return { family: store.agents, backend, close };
});

for (const backend of postgresBackends("agents")) {
  describeAgentsContract(backend.label, async (clock) => ({
    family: new PostgresAgentStore(backend.client(), clock),
    backend: postgresBackend(backend.client(), clock),
    close: () => {},
  }));
}
