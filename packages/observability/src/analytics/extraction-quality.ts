/**
 * The quality facts of one extraction result (PLATFORM.md §14 definitions), read once from
 * `result.resultMetadata` when the extraction finishes and kept beside it, so analytics never
 * parses results per query. Defensive: stored results of older builds may lack any part.
 */

export interface ExtractionQuality {
  /** Mean of every non-null composite confidence score in `scoring.fields` and `scoring.items[*].fields`. */
  confidence: number | null;
  /** `scoring.confidence.flagCount`; null when there is no confidence summary. */
  flagCount: number | null;
  /** `schemaValidation.applied`; null when there is no report. */
  validationApplied: boolean | null;
  /** `schemaValidation.violationCount`; null when there is no report. */
  violationCount: number | null;
}

const objectOr = (value: unknown): Record<string, unknown> | null =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

/** Entries of a map or a list (items are keyed `<property>[<index>]`; a list is read the same way). */
const entriesOf = (value: unknown): unknown[] =>
  typeof value === "object" && value !== null ? Object.values(value) : [];

const finite = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

/** Composite scores of a `{<name>: field entry}` map, non-null ones only. */
function compositeScores(fields: unknown, into: number[]): void {
  for (const entry of entriesOf(fields)) {
    const score = finite(objectOr(objectOr(entry)?.confidence)?.score);
    if (score !== null) into.push(score);
  }
}

/** Facts of a stored result `{structuredOutput, metadata, resultMetadata}` (null for none). */
export function extractionQuality(result: unknown): ExtractionQuality {
  const metadata = objectOr(objectOr(result)?.resultMetadata);
  const scoring = objectOr(metadata?.scoring);
  const scores: number[] = [];
  compositeScores(scoring?.fields, scores);
  for (const item of entriesOf(scoring?.items)) compositeScores(objectOr(item)?.fields, scores);
  const validation = objectOr(metadata?.schemaValidation);
  const applied = validation?.applied;
  return {
    confidence: scores.length === 0 ? null : scores.reduce((sum, score) => sum + score, 0) / scores.length,
    flagCount: finite(objectOr(scoring?.confidence)?.flagCount),
    validationApplied: typeof applied === "boolean" ? applied : null,
    violationCount: finite(validation?.violationCount),
  };
}
