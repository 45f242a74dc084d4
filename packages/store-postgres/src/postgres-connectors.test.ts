/**
 * The connectors contract on SQLite (the reference), PGlite and a real PostgreSQL server, and
 * the sealed token at rest: the same cipher and binding as SQLite, never the plain token.
 */
import { describe, expect, it } from "vitest";
import { CredentialCipher } from "../../store-sqlite/src/credential-cipher.js";
import { describeConnectorsContract } from "../test/families/connectors-contract.js";
import { openSqlite, postgresBackend, testClock } from "../test/families/family-fixture.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { PostgresConnectorStore } from "./postgres-connectors.js";

const secret = "a test master secret of some length";

describeConnectorsContract("SQLite", async (clock) => {
  const { store, backend, close } = openSqlite(clock);
  return { family: store.connectors, backend, close };
});

const backends = postgresBackends("connectors");
for (const backend of backends) {
  describeConnectorsContract(backend.label, async (clock) => ({
    family: new PostgresConnectorStore(backend.client(), new CredentialCipher(secret), clock),
    backend: postgresBackend(backend.client(), clock),
    close: () => {},
  }));

  describe(`connector tokens at rest on ${backend.label}`, () => {
    it("are sealed as SQLite seals them, bound to the connector and the member", async () => {
      const cipher = new CredentialCipher(secret);
      const connectors = new PostgresConnectorStore(backend.client(), cipher, testClock());
      const org = await postgresBackend(backend.client(), testClock()).organization();
      const crm = await connectors.create(org, {
        serverLabel: "crm",
        url: "https://crm.example.com",
        host: "crm.example.com",
        authKind: "bearer",
        description: null,
        agentIds: null,
        enabled: true,
        pluginId: null,
      });
      await connectors.connect(crm.id, "key_a", "plain-secret-token");
      const { rows } = await backend
        .client()
        .query<{ token_encrypted: string }>(
          "SELECT token_encrypted FROM connector_connections WHERE connector_id = $1",
          [crm.id],
        );
      const sealed = rows[0]?.token_encrypted ?? "";
      expect(sealed).toMatch(/^v1:/);
      expect(sealed).not.toContain("plain-secret-token");
      expect(cipher.decrypt(sealed, `connector:${crm.id}:key_a`)).toBe("plain-secret-token");
      expect(() => cipher.decrypt(sealed, `connector:${crm.id}:key_b`)).toThrow();
    });
  });
}
