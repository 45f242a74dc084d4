/**
 * API keys: `gw_` followed by 43 base64url characters (256 random bits). Only a
 * SHA-256 hash is stored — a slow password hash buys nothing against 256-bit
 * secrets and would cost every request — so the key is shown once, at creation.
 *
 * Verified keys are remembered by their hash for VERIFIED_TTL_MS, so a burst of calls with
 * one key reads the database once a second instead of once a call. A revocation or a plan
 * change through this store forgets them all at once; one made by another process (the
 * `groundwork keys revoke` command beside a running server) takes effect within the TTL.
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
  toPrincipal,
  toApiKey as toRecord,
  type VerifiedKeyRow,
  VerifiedKeys,
} from "@groundwork/store-rows";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

export { type ApiKeyRecord, hashApiKey };

export class ApiKeyStore {
  private readonly sql: (text: string) => Statement;
  private readonly verified = new VerifiedKeys();

  constructor(
    db: Database,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
  ) {
    this.sql = statementCache(db);
  }

  /** Creates a key; the returned `key` is the only time the secret exists outside the caller. */
  create(input: { organizationId: string; role: Role; name?: string }): {
    record: ApiKeyRecord;
    key: string;
  } {
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
    this.sql(
      `INSERT INTO api_keys (id, organization_id, name, role, prefix, key_hash, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      record.id,
      record.organizationId,
      record.name,
      record.role,
      record.prefix,
      hashApiKey(key),
      record.createdAt,
    );
    return { record, key };
  }

  /** The caller behind a presented key, or null when the key is unknown or revoked. */
  authenticate(key: string): Principal | null {
    if (!key.startsWith(API_KEY_PREFIX)) return null;
    const hash = hashApiKey(key);
    const now = this.clock.now();
    const remembered = this.verified.get(hash, now);
    if (remembered !== null) return remembered;
    const row = this.sql(
      `SELECT k.id AS key_id, k.role, k.last_used_at, o.id AS org_id, o.name AS org_name, o.plan
         FROM api_keys k JOIN organizations o ON o.id = k.organization_id
         WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    ).get(hash) as VerifiedKeyRow | undefined;
    if (row === undefined) return null;
    if (row.last_used_at === null || now - Number(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
      this.sql("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(now, row.key_id);
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
  revoke(idOrKey: string): boolean {
    this.forgetVerified();
    const result = this.sql(
      "UPDATE api_keys SET revoked_at = ? WHERE (id = ? OR key_hash = ?) AND revoked_at IS NULL",
    ).run(this.clock.now(), idOrKey, hashApiKey(idOrKey));
    return result.changes > 0;
  }

  list(organizationId?: string): ApiKeyRecord[] {
    const rows = (
      organizationId === undefined
        ? this.sql("SELECT * FROM api_keys ORDER BY created_at, id").all()
        : this.sql("SELECT * FROM api_keys WHERE organization_id = ? ORDER BY created_at, id").all(
            organizationId,
          )
    ) as ApiKeyRow[];
    return rows.map(toRecord);
  }
}
