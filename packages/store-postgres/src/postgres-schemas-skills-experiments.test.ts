/**
 * The contracts of schemas, skills and experiments on the SQLite store — the reference: a
 * contract that fails there is wrong — and on PGlite and a real PostgreSQL server
 * (test/postgres-backends.ts); and the migration runner applying a reserved version below the
 * database's highest.
 */
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import type { SchemaStore } from "../../store-sqlite/src/schemas.js";
import type { SkillStore } from "../../store-sqlite/src/skills.js";
import { onPostgres, onSqlite } from "../test/families/family-harness.js";
import { describeSchemaContract } from "../test/families/schemas-contract.js";
import { describeSkillContract } from "../test/families/skills-contract.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { postgresMigrations, runPostgresMigrations } from "./migrations.js";
import { PostgresSchemaStore } from "./postgres-schemas.js";
import { PostgresSkillStore } from "./postgres-skills.js";
import { fromPGlite, type PGliteLike } from "./sql-client.js";

const backends = postgresBackends("schemas_skills_experiments");

describeSchemaContract(
  "SQLite",
  onSqlite((store) => store.schemas),
);
for (const backend of backends) {
  describeSchemaContract(
    backend.label,
    onPostgres<SchemaStore>(backend, (client, clock, ids) => new PostgresSchemaStore(client, clock, ids)),
  );
}

describeSkillContract(
  "SQLite",
  onSqlite((store) => store.skills),
);
for (const backend of backends) {
  describeSkillContract(
    backend.label,
    onPostgres<SkillStore>(backend, (client, clock, ids) => new PostgresSkillStore(client, clock, ids)),
  );
}

describe("PostgreSQL migrations", () => {
  it("apply a version the database lacks even when it has higher ones (reserved numbers)", async () => {
    const client = fromPGlite((await PGlite.create()) as unknown as PGliteLike);
    try {
      const withoutSchemas = postgresMigrations.filter((migration) => migration.version !== 16);
      await runPostgresMigrations(client, withoutSchemas);
      expect((await client.query("SELECT to_regclass('schemas') AS t")).rows).toEqual([{ t: null }]);
      expect(await runPostgresMigrations(client)).toEqual([16]);
      expect(await runPostgresMigrations(client)).toEqual([]);
      expect((await client.query("SELECT to_regclass('schema_labels')::text AS t")).rows).toEqual([
        { t: "schema_labels" },
      ]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
