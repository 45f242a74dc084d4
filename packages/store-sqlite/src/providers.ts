/**
 * Provider accounts of organizations. The API key is encrypted before it reaches
 * the database and only decrypted for a call (`getCredentials`); records returned
 * for display never carry it.
 */
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import {
  type CredentialCipher,
  type ProviderRecord,
  type ProviderRow,
  toProvider as toRecord,
} from "@groundwork/store-rows";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

export type { ProviderRecord };

export class ProviderStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    db: Database,
    private readonly cipher: CredentialCipher,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  create(input: {
    organizationId: string;
    name: string;
    type: string;
    config: Record<string, unknown>;
    apiKey: string | null;
  }): ProviderRecord {
    const id = this.ids("prv");
    const now = this.clock.now();
    this.sql(
      `INSERT INTO providers (id, organization_id, name, type, config, api_key_encrypted, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      input.organizationId,
      input.name,
      input.type,
      JSON.stringify(input.config),
      input.apiKey === null ? null : this.cipher.encrypt(input.apiKey, id),
      now,
      now,
    );
    return this.mustGet(input.organizationId, id);
  }

  get(organizationId: string, id: string): ProviderRecord | null {
    const row = this.sql("SELECT * FROM providers WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as ProviderRow | undefined;
    return row === undefined ? null : toRecord(row);
  }

  /** Oldest first, so "the organization's provider of a kind" is stable when several exist. */
  list(organizationId: string): ProviderRecord[] {
    const rows = this.sql("SELECT * FROM providers WHERE organization_id = ? ORDER BY created_at, id").all(
      organizationId,
    ) as ProviderRow[];
    return rows.map(toRecord);
  }

  /** The organization's first provider of a type, with its decrypted key, for making a call. */
  findWithCredentials(
    organizationId: string,
    type: string,
  ): { record: ProviderRecord; apiKey: string | null } | null {
    const row = this.sql(
      "SELECT * FROM providers WHERE organization_id = ? AND type = ? ORDER BY created_at, id LIMIT 1",
    ).get(organizationId, type) as ProviderRow | undefined;
    if (row === undefined) return null;
    return { record: toRecord(row), apiKey: this.decryptRow(row) };
  }

  getWithCredentials(
    organizationId: string,
    id: string,
  ): { record: ProviderRecord; apiKey: string | null } | null {
    const row = this.sql("SELECT * FROM providers WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as ProviderRow | undefined;
    if (row === undefined) return null;
    return { record: toRecord(row), apiKey: this.decryptRow(row) };
  }

  update(
    organizationId: string,
    id: string,
    changes: { name?: string; config?: Record<string, unknown>; apiKey?: string | null },
  ): ProviderRecord | null {
    const current = this.get(organizationId, id);
    if (current === null) return null;
    const sets: string[] = ["updated_at = @now"];
    const params: Record<string, unknown> = { organizationId, id, now: this.clock.now() };
    if (changes.name !== undefined) {
      sets.push("name = @name");
      params.name = changes.name;
    }
    if (changes.config !== undefined) {
      sets.push("config = @config");
      params.config = JSON.stringify(changes.config);
    }
    if (changes.apiKey !== undefined) {
      sets.push("api_key_encrypted = @apiKey");
      params.apiKey = changes.apiKey === null ? null : this.cipher.encrypt(changes.apiKey, id);
    }
    this.sql(
      `UPDATE providers SET ${sets.join(", ")} WHERE organization_id = @organizationId AND id = @id`,
    ).run(params);
    return this.get(organizationId, id);
  }

  delete(organizationId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM providers WHERE organization_id = ? AND id = ?").run(organizationId, id).changes >
      0
    );
  }

  private decryptRow(row: ProviderRow): string | null {
    return row.api_key_encrypted === null ? null : this.cipher.decrypt(row.api_key_encrypted, row.id);
  }

  private mustGet(organizationId: string, id: string): ProviderRecord {
    const record = this.get(organizationId, id);
    if (record === null) throw new Error(`Provider ${id} vanished after insert`);
    return record;
  }
}
