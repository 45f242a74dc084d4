import type { Migration } from "./migration.js";

export const extractionSourcePlacements: Migration = {
  version: 27,
  name: "extractions: where each block of a converted input lies in its text (pages and PDF boxes)",
  sql: `
    -- JSON [{start, end, page, bbox?}] in code points of input_text (decision PV12); null when the
    -- input text was not made by a conversion.
    ALTER TABLE extractions ADD COLUMN source_placements TEXT;
  `,
};
