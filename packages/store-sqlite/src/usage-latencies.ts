/**
 * The latency index of usage rows, written behind them (migration 33, HP65). A latency read
 * wants the rows of one latency bin over a time range in order (AN3); an index keyed that way
 * gets each batch of usage rows at as many places as the batch has bins, and the pages it dirties
 * there were most of what a usage row cost to write. So the entries go to `usage_latencies` a few
 * thousand rows at a time, sorted, each bin's new entries then sharing pages: every usage row
 * above the watermark is still to be indexed, and whoever holds the write lock may index them.
 */
import type { Statement } from "better-sqlite3";

/** Rows the usage writer lets pile up before it indexes them in the transaction of a batch. */
export const LATENCY_INDEX_AT = 4_096;

const INDEX_PENDING = `INSERT INTO usage_latencies (organization_id, latency_bin, created_at, latency_ms, seq)
  SELECT organization_id, latency_bin, created_at, latency_ms, seq FROM usage_records
  WHERE seq > (SELECT upto FROM usage_latency_watermark)
  ORDER BY 1, 2, 3, 4, 5`;
const ADVANCE =
  "UPDATE usage_latency_watermark SET upto = (SELECT coalesce(max(seq), upto) FROM usage_records)";
const PENDING = `SELECT (SELECT coalesce(max(seq), 0) FROM usage_records) > (SELECT upto FROM usage_latency_watermark)`;

/**
 * Indexes every usage row above the watermark and moves it past them. Must run inside a
 * transaction that holds the write lock (the usage batch's, or an immediate one): the rows read
 * and the watermark written then describe the same rows, whichever process wrote them.
 */
export function indexPendingLatencies(sql: (text: string) => Statement): void {
  sql(INDEX_PENDING).run();
  sql(ADVANCE).run();
}

/** Whether usage rows wait to be indexed (a read, so latency reads take the write lock only then). */
export function latenciesPending(sql: (text: string) => Statement): boolean {
  return sql(PENDING).pluck().get() === 1;
}
