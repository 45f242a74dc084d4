/**
 * The billing counters that are not usage records (PLATFORM.md §15): pages converted per
 * UTC month, the organization's stored bytes, and its unrevoked keys. The charged EUR
 * come from the usage records (usage-records.ts); requests per minute are counted in process.
 */
import { SqliteStore } from "./sqlite-store.js";

export class BillingStore extends SqliteStore {
  /** Adds converted pages to the month starting at `periodStart` (epoch ms). */
  recordPages(organizationId: string, periodStart: number, pages: number): void {
    if (pages <= 0) return;
    this.sql(
      `INSERT INTO billing_page_counts (organization_id, period_start, pages) VALUES (?, ?, ?)
         ON CONFLICT (organization_id, period_start) DO UPDATE SET pages = pages + excluded.pages`,
    ).run(organizationId, periodStart, pages);
  }

  /** Pages converted in the months starting at or after `since`. */
  pagesSince(organizationId: string, since: number): number {
    return (
      this.sql(
        "SELECT coalesce(sum(pages), 0) AS n FROM billing_page_counts WHERE organization_id = ? AND period_start >= ?",
      ).get(organizationId, since) as { n: number }
    ).n;
  }

  /**
   * Bytes stored now: live files, the newest revision of each live knowledge-base document,
   * every skill version's files (plugins' skills included) and the plugins' manifests.
   * Memory is not counted: it keeps its own quota (§3).
   */
  storedBytes(organizationId: string): number {
    return (
      this.sql(
        `SELECT
           (SELECT coalesce(sum(byte_size), 0) FROM files WHERE organization_id = @org AND deleted_at IS NULL)
         + (SELECT coalesce(sum(r.byte_size), 0) FROM kb_documents d
              JOIN kb_revisions r ON r.id = d.latest_revision_id
              JOIN knowledge_bases k ON k.id = d.knowledge_base_id
              WHERE d.organization_id = @org AND d.deleted_at IS NULL AND k.deleted_at IS NULL)
         + (SELECT coalesce(sum(v.total_size), 0) FROM skill_versions v JOIN skills s ON s.id = v.skill_id
              WHERE s.organization_id = @org)
         + (SELECT coalesce(sum(length(CAST(manifest AS BLOB))), 0) FROM plugins WHERE organization_id = @org)
           AS n`,
      ).get({ org: organizationId }) as { n: number }
    ).n;
  }

  /** Unrevoked API keys (the `seats` counter). */
  activeKeys(organizationId: string): number {
    return (
      this.sql("SELECT count(*) AS n FROM api_keys WHERE organization_id = ? AND revoked_at IS NULL").get(
        organizationId,
      ) as { n: number }
    ).n;
  }
}
