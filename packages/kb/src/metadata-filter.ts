/**
 * The metadata filter of a search, applied by the stores to each live document's metadata
 * (SQLite and PostgreSQL alike, so both answer the same documents for the same filter): every
 * key must match. A scalar matches an equal value or an array value that contains it; an array
 * in the filter matches when any of its values does.
 */
export function metadataMatches(metadata: Record<string, unknown>, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([key, wanted]) => {
    const actual = metadata[key];
    const options = Array.isArray(wanted) ? wanted : [wanted];
    return options.some((option) => (Array.isArray(actual) ? actual.includes(option) : actual === option));
  });
}
