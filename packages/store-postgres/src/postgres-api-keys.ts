/**
 * API keys on PostgreSQL: the same methods and answers as store-sqlite's ApiKeyStore — only the
 * SHA-256 of a key is stored, verified keys are remembered for a second (store-rows'
 * VerifiedKeys), last use is written at most once a minute.
 */
import {
  type Clock,
  defaultIdGenerator,
  type IdGenerator,
  type Principal,
  type Role,
  systemClock,
} from "@groundwork/core";
import {
  API_KEY_PREFIX,
  type ApiKeyRecord,
  type ApiKeyRow,
  hashApiKey,
  LAST_USED_RESOLUTION_MS,
  newApiKey,
  SHOWN_PREFIX_LENGTH,
  toApiKey,
  toPrincipal,
  type VerifiedKeyRow,
  VerifiedKeys,
} from "@groundwork/store-rows";
import { connectionOf } from "./postgres-family.js";
import type { SqlClient } from "./sql-client.js";

export class PostgresApiKeyStore {
  private readonly verified = new VerifiedKeys();

  constructor(
    private readonly client: SqlClient,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {}

  /** Creates a key; the returned `key` is the only time the secret exists outside the caller. */
  async create(input: { organizationId: string; role: Role; name?: string }): Promise<{
    record: ApiKeyRecord;
    key: string;
  }> {
    const key = newApiKey();
    const record: ApiKeyRecord = {
      id: this.ids("key"),
      organizationId: input.organizationId,
      name: input.name ?? `${input.role} key`,
      role: input.role,
      prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
      createdAt: this.clock.now(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await connectionOf(this.client).query(
      `INSERT INTO api_keys (id, organization_id, name, role, prefix, key_hash, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        record.id,
        record.organizationId,
        record.name,
        record.role,
        record.prefix,
        hashApiKey(key),
        record.createdAt,
      ],
    );
    return { record, key };
  }

  /** The caller behind a presented key, or null when the key is unknown or revoked. */
  async authenticate(key: string): Promise<Principal | null> {
    if (!key.startsWith(API_KEY_PREFIX)) return null;
    const hash = hashApiKey(key);
    const now = this.clock.now();
    const remembered = this.verified.get(hash, now);
    if (remembered !== null) return remembered;
    const { rows } = await connectionOf(this.client).query<VerifiedKeyRow>(
      `SELECT k.id AS key_id, k.role, k.last_used_at, o.id AS org_id, o.name AS org_name, o.plan
         FROM api_keys k JOIN organizations o ON o.id = k.organization_id
         WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    const row = rows[0];
    if (row === undefined) return null;
    if (row.last_used_at === null || now - Number(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
      await connectionOf(this.client).query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2", [
        now,
        row.key_id,
      ]);
    }
    const principal = toPrincipal(row);
    this.verified.remember(hash, principal, now);
    return { ...principal };
  }

  /** Forgets every verified key, so the next call of each reads its row (revocations, plan changes). */
  forgetVerified(): void {
    this.verified.clear();
  }

  /** Revokes by key id or by the key itself; false when nothing active matched. */
  async revoke(idOrKey: string): Promise<boolean> {
    this.forgetVerified();
    const { rows } = await connectionOf(this.client).query(
      "UPDATE api_keys SET revoked_at = $1 WHERE (id = $2 OR key_hash = $3) AND revoked_at IS NULL RETURNING id",
      [this.clock.now(), idOrKey, hashApiKey(idOrKey)],
    );
    return rows.length > 0;
  }

  async list(organizationId?: string): Promise<ApiKeyRecord[]> {
    const { rows } =
      organizationId === undefined
        ? await connectionOf(this.client).query<ApiKeyRow>("SELECT * FROM api_keys ORDER BY created_at, id")
        : await connectionOf(this.client).query<ApiKeyRow>(
            "SELECT * FROM api_keys WHERE organization_id = $1 ORDER BY created_at, id",
            [organizationId],
          );
    return rows.map(toApiKey);
  }
}
