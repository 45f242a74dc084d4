import type { Migration } from "./migration.js";

/**
 * `traces_time` in ascending order (HP66). Newest-first lists read an ascending index backwards
 * just as well (the same plan, no sort), but a descending one takes every new trace at the left
 * edge of its organization's entries, where SQLite's page split has no append path: 1.4 µs of a
 * gateway call's ~9 µs of trace writing, against 0.6 µs ascending (same run).
 */
export const tracesTimeAscending: Migration = {
  version: 34,
  name: "traces listed through an ascending time index",
  sql: `
    DROP INDEX traces_time;
    CREATE INDEX traces_time ON traces(organization_id, start_time, id);
  `,
};
