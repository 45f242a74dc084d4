/**
 * Requests per organization and window counted in the database, so every server process on it
 * enforces one shared requests-per-minute limit (issue #24). Admission is one statement: the
 * upsert only adds while the count is under the limit, and the row lock it takes serialises
 * processes racing for the last request of a window.
 */
import type { RequestCounter } from "@groundwork/core";
import type { SqlClient } from "./sql-client.js";

/** Windows this old are deleted as new ones start (an hour of minutes is plenty for reports). */
const KEEP_MS = 60 * 60_000;

const ADMIT = `
  INSERT INTO request_windows AS w (organization_id, window_start, count) VALUES ($1, $2, 1)
  ON CONFLICT (organization_id, window_start) DO UPDATE SET count = w.count + 1
    WHERE $3::integer IS NULL OR w.count < $3::integer
  RETURNING count`;

export class PostgresRequestCounter implements RequestCounter {
  /** The newest window this process has seen start; older rows are pruned once per window. */
  private prunedBefore = 0;

  constructor(private readonly client: SqlClient) {}

  async admit(organizationId: string, windowStart: number, limit: number | null): Promise<number | null> {
    // A limit of zero refuses without writing (the insert branch would count a first request).
    if (limit !== null && limit <= 0) return null;
    if (windowStart > this.prunedBefore) {
      this.prunedBefore = windowStart;
      await this.client.query("DELETE FROM request_windows WHERE window_start < $1", [windowStart - KEEP_MS]);
    }
    const { rows } = await this.client.query<{ count: number }>(ADMIT, [organizationId, windowStart, limit]);
    return rows[0] === undefined ? null : Number(rows[0].count);
  }

  async count(organizationId: string, windowStart: number): Promise<number> {
    const { rows } = await this.client.query<{ count: number }>(
      "SELECT count FROM request_windows WHERE organization_id = $1 AND window_start = $2",
      [organizationId, windowStart],
    );
    return rows[0] === undefined ? 0 : Number(rows[0].count);
  }
}
