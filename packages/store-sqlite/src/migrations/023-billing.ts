import type { Migration } from "./migration.js";

export const billing: Migration = {
  version: 23,
  name: "billing: converted pages per organization and UTC month",
  sql: `
    -- One counter per organization and month (period_start = epoch ms of the UTC month's
    -- start): the pages resource of PLATFORM.md §15 reads one row, a conversion adds to it.
    CREATE TABLE billing_page_counts (
      organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      period_start INTEGER NOT NULL,
      pages INTEGER NOT NULL,
      PRIMARY KEY (organization_id, period_start)
    );
  `,
};
