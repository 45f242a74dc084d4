/**
 * The rows both SQL stores read and write (issue #24). A table's row type and its mapping to
 * the platform's record live here once, so the SQLite store and the PostgreSQL store answer
 * the same values: both keep the same logical column values (timestamps as epoch ms, JSON as
 * text or JSONB parsed to the same value, blobs as bytes), and each store only writes its own
 * SQL. One module per store family; this index re-exports them.
 */

export * from "./annotation-queues.js";
export { bool, int, intOrNull, json } from "./columns.js";
export * from "./datasets.js";
export * from "./evaluator-templates.js";
export * from "./experiments.js";
export * from "./prompts.js";
export * from "./scores.js";
export * from "./text-match.js";
export * from "./versioned.js";
