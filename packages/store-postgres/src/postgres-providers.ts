/**
 * Provider accounts on PostgreSQL: the same methods and answers as store-sqlite's ProviderStore.
 * The API key is sealed by the shared CredentialCipher (store-rows) before it reaches the
 * database, in the same format and bound to the row id, so either store opens the other's value.
 */
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import {
  type CredentialCipher,
  type ProviderRecord,
  type ProviderRow,
  toProvider,
} from "@groundwork/store-rows";
import { connectionOf } from "./postgres-family.js";
import type { SqlClient } from "./sql-client.js";

export class PostgresProviderStore {
  constructor(
    private readonly client: SqlClient,
    private readonly cipher: CredentialCipher,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {}

  async create(input: {
    organizationId: string;
    name: string;
    type: string;
    config: Record<string, unknown>;
    apiKey: string | null;
  }): Promise<ProviderRecord> {
    const id = this.ids("prv");
    const now = this.clock.now();
    const { rows } = await connectionOf(this.client).query<ProviderRow>(
      `INSERT INTO providers (id, organization_id, name, type, config, api_key_encrypted, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [
        id,
        input.organizationId,
        input.name,
        input.type,
        JSON.stringify(input.config),
        input.apiKey === null ? null : this.cipher.encrypt(input.apiKey, id),
        now,
        now,
      ],
    );
    return toProvider(rows[0] as ProviderRow);
  }

  async get(organizationId: string, id: string): Promise<ProviderRecord | null> {
    const row = await this.row(organizationId, id);
    return row === undefined ? null : toProvider(row);
  }

  /** Oldest first, so "the organization's provider of a kind" is stable when several exist. */
  async list(organizationId: string): Promise<ProviderRecord[]> {
    const { rows } = await connectionOf(this.client).query<ProviderRow>(
      "SELECT * FROM providers WHERE organization_id = $1 ORDER BY created_at, id",
      [organizationId],
    );
    return rows.map(toProvider);
  }

  /** The organization's first provider of a type, with its decrypted key, for making a call. */
  async findWithCredentials(
    organizationId: string,
    type: string,
  ): Promise<{ record: ProviderRecord; apiKey: string | null } | null> {
    const { rows } = await connectionOf(this.client).query<ProviderRow>(
      "SELECT * FROM providers WHERE organization_id = $1 AND type = $2 ORDER BY created_at, id LIMIT 1",
      [organizationId, type],
    );
    const row = rows[0];
    return row === undefined ? null : { record: toProvider(row), apiKey: this.decryptRow(row) };
  }

  async getWithCredentials(
    organizationId: string,
    id: string,
  ): Promise<{ record: ProviderRecord; apiKey: string | null } | null> {
    const row = await this.row(organizationId, id);
    return row === undefined ? null : { record: toProvider(row), apiKey: this.decryptRow(row) };
  }

  async update(
    organizationId: string,
    id: string,
    changes: { name?: string; config?: Record<string, unknown>; apiKey?: string | null },
  ): Promise<ProviderRecord | null> {
    // Checked first, as SQLite does: an unknown provider answers null even without a master secret.
    if ((await this.row(organizationId, id)) === undefined) return null;
    const params: unknown[] = [organizationId, id, this.clock.now()];
    const sets: string[] = ["updated_at = $3"];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (changes.name !== undefined) set("name", changes.name);
    if (changes.config !== undefined) set("config", JSON.stringify(changes.config));
    if (changes.apiKey !== undefined) {
      set("api_key_encrypted", changes.apiKey === null ? null : this.cipher.encrypt(changes.apiKey, id));
    }
    const { rows } = await connectionOf(this.client).query<ProviderRow>(
      `UPDATE providers SET ${sets.join(", ")} WHERE organization_id = $1 AND id = $2 RETURNING *`,
      params,
    );
    return rows[0] === undefined ? null : toProvider(rows[0]);
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const { rows } = await connectionOf(this.client).query(
      "DELETE FROM providers WHERE organization_id = $1 AND id = $2 RETURNING id",
      [organizationId, id],
    );
    return rows.length > 0;
  }

  private async row(organizationId: string, id: string): Promise<ProviderRow | undefined> {
    const { rows } = await connectionOf(this.client).query<ProviderRow>(
      "SELECT * FROM providers WHERE organization_id = $1 AND id = $2",
      [organizationId, id],
    );
    return rows[0];
  }

  private decryptRow(row: ProviderRow): string | null {
    return row.api_key_encrypted === null ? null : this.cipher.decrypt(row.api_key_encrypted, row.id);
  }
}
