/**
 * The billing counters that are not usage records (PLATFORM.md §15) on PostgreSQL:
 * store-sqlite's `BillingStore`, asynchronous. `storedBytes` and `activeKeys` read tables other
 * families own (files, knowledge bases, skills, plugins, api keys) with the same SQL.
 */
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import { int } from "@groundwork/store-rows";
import { atomicallyOn, connectionOf } from "./postgres-family.js";
import type { SqlClient } from "./sql-client.js";

export class PostgresBillingStore {
  constructor(
    private readonly client: SqlClient,
    // The families' common constructor: billing reads no clock and makes no ids.
    _clock: Clock = systemClock,
    _ids: IdGenerator = defaultIdGenerator,
  ) {}

  /** A unit of work over this client (the platform's `AtomicPort`; see postgres-family.ts). */
  atomically<T>(work: () => Promise<T>): Promise<T> {
    return atomicallyOn(this.client, work);
  }

  /** Adds converted pages to the month starting at `periodStart` (epoch ms). */
  async recordPages(organizationId: string, periodStart: number, pages: number): Promise<void> {
    if (pages <= 0) return;
    await connectionOf(this.client).query(
      `INSERT INTO billing_page_counts AS c (organization_id, period_start, pages) VALUES ($1, $2, $3)
         ON CONFLICT (organization_id, period_start) DO UPDATE SET pages = c.pages + excluded.pages`,
      [organizationId, periodStart, pages],
    );
  }

  /** Pages converted in the months starting at or after `since`. */
  async pagesSince(organizationId: string, since: number): Promise<number> {
    return this.count(
      "SELECT coalesce(sum(pages), 0) AS n FROM billing_page_counts WHERE organization_id = $1 AND period_start >= $2",
      [organizationId, since],
    );
  }

  /**
   * Bytes stored now: live files, the newest revision of each live knowledge-base document,
   * every skill version's files (plugins' skills included) and the plugins' manifests (their
   * text's UTF-8 bytes, as SQLite's `length(CAST(manifest AS BLOB))`). Memory is not counted.
   */
  async storedBytes(organizationId: string): Promise<number> {
    return this.count(
      `SELECT
         (SELECT coalesce(sum(byte_size), 0) FROM files WHERE organization_id = $1 AND deleted_at IS NULL)
       + (SELECT coalesce(sum(r.byte_size), 0) FROM kb_documents d
            JOIN kb_revisions r ON r.id = d.latest_revision_id
            JOIN knowledge_bases k ON k.id = d.knowledge_base_id
            WHERE d.organization_id = $1 AND d.deleted_at IS NULL AND k.deleted_at IS NULL)
       + (SELECT coalesce(sum(v.total_size), 0) FROM skill_versions v JOIN skills s ON s.id = v.skill_id
            WHERE s.organization_id = $1)
       + (SELECT coalesce(sum(octet_length(manifest::text)), 0) FROM plugins WHERE organization_id = $1)
         AS n`,
      [organizationId],
    );
  }

  /** Unrevoked API keys (the `seats` counter). */
  async activeKeys(organizationId: string): Promise<number> {
    return this.count(
      "SELECT count(*) AS n FROM api_keys WHERE organization_id = $1 AND revoked_at IS NULL",
      [organizationId],
    );
  }

  /** A one-row count (a string from node-postgres for BIGINT and NUMERIC sums). */
  private async count(text: string, params: readonly unknown[]): Promise<number> {
    const { rows } = await connectionOf(this.client).query<{ n: unknown }>(text, params);
    return int(rows[0]?.n ?? 0);
  }
}
