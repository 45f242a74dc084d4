/**
 * The scored fields of an extraction (spec document 2, "Scoring") as rows the review view shows,
 * and where each grounded value sits in the input text. Pure functions: no DOM, unit-tested.
 *
 * Spans (issue "Provenance") are `{start, end}` in Unicode code points, end exclusive. They are read
 * from the field entry or its `grounding` object. Without spans, a value graded exact, normalized or
 * partial match is located at its first case-insensitive occurrence (decision WC5).
 */

export interface Span {
  start: number;
  end: number;
}

interface Score {
  score: number | null;
  basis: string | null;
  spans?: Span[];
}

interface FieldEntry {
  grounding?: Score | null;
  confidence?: Score | null;
  spans?: Span[];
}

export interface Scoring {
  fields?: Record<string, FieldEntry>;
  items?: Record<string, { fields?: Record<string, FieldEntry> }>;
  confidence?: { flags?: Flag[] } | null;
}

export interface Flag {
  field: string;
  confidence: number;
  threshold: number;
  source: string;
}

export interface FieldRow {
  /** RFC 6901 pointer into the structured output. */
  pointer: string;
  /** The flat key flags use: `name`, `lines[0].partNumber`, `[0].name`. */
  key: string;
  value: unknown;
  basis: string | null;
  groundingScore: number | null;
  confidence: number | null;
  flags: Flag[];
  /** Spans as sent (code points), or undefined when the result carries none. */
  spans: Span[] | undefined;
}

export const LOCATED_BASES = new Set(["exact_match", "normalized_match", "partial_match"]);

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function pointerOf(tokens: Array<string | number>): string {
  return tokens.map((token) => `/${escapePointerToken(String(token))}`).join("");
}

/** The value at an RFC 6901 pointer, or undefined. */
export function valueAt(document: unknown, pointer: string): unknown {
  if (pointer === "") return document;
  let current: unknown = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** `lines[3]` → ["lines", 3]; `[3]` → [3]. */
function itemTokens(itemKey: string): Array<string | number> | null {
  const found = /^(.*)\[(\d+)\]$/.exec(itemKey);
  if (found === null) return null;
  const [, property, index] = found;
  return property === "" ? [Number(index)] : [property as string, Number(index)];
}

function spansOf(entry: FieldEntry): Span[] | undefined {
  const spans = entry.spans ?? entry.grounding?.spans;
  return Array.isArray(spans) ? spans : undefined;
}

export function fieldRows(structuredOutput: unknown, scoring: Scoring | null | undefined): FieldRow[] {
  if (!scoring) return [];
  const flags = scoring.confidence?.flags ?? [];
  const rows: FieldRow[] = [];
  const add = (tokens: Array<string | number>, key: string, entry: FieldEntry) => {
    const pointer = pointerOf(tokens);
    rows.push({
      pointer,
      key,
      value: valueAt(structuredOutput, pointer),
      basis: entry.grounding?.basis ?? null,
      groundingScore: entry.grounding?.score ?? null,
      confidence: entry.confidence?.score ?? entry.grounding?.score ?? null,
      flags: flags.filter((flag) => flag.field === key),
      spans: spansOf(entry),
    });
  };
  for (const [name, entry] of Object.entries(scoring.fields ?? {})) add([name], name, entry);
  for (const [itemKey, item] of Object.entries(scoring.items ?? {})) {
    const base = itemTokens(itemKey);
    if (base === null) continue;
    for (const [name, entry] of Object.entries(item.fields ?? {})) {
      add([...base, name], `${itemKey}.${name}`, entry);
    }
  }
  return rows;
}

/** UTF-16 index of each code-point offset 0..n (n = the code-point length). */
export function codePointIndex(text: string): number[] {
  const index: number[] = [];
  let unit = 0;
  for (const char of text) {
    index.push(unit);
    unit += char.length;
  }
  index.push(unit);
  return index;
}

export interface MarkRange {
  /** UTF-16 offsets into the text, end exclusive. */
  start: number;
  end: number;
  pointer: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Where each row's value is marked in `text` (UTF-16 ranges, sorted, invalid spans dropped). */
export function markRanges(text: string, rows: FieldRow[]): MarkRange[] {
  const index = codePointIndex(text);
  const length = index.length - 1;
  const ranges: MarkRange[] = [];
  for (const row of rows) {
    if (row.spans !== undefined) {
      for (const span of row.spans) {
        if (!Number.isInteger(span.start) || !Number.isInteger(span.end)) continue;
        if (span.start < 0 || span.end > length || span.start >= span.end) continue;
        ranges.push({
          start: index[span.start] as number,
          end: index[span.end] as number,
          pointer: row.pointer,
        });
      }
      continue;
    }
    if (!LOCATED_BASES.has(row.basis ?? "")) continue;
    if (typeof row.value !== "string" && typeof row.value !== "number") continue;
    const needle = String(row.value).trim();
    if (needle === "") continue;
    const found = new RegExp(escapeRegExp(needle), "iu").exec(text);
    if (found !== null)
      ranges.push({ start: found.index, end: found.index + found[0].length, pointer: row.pointer });
  }
  return ranges.sort((a, b) => a.start - b.start || b.end - a.end);
}

export interface Segment {
  start: number;
  end: number;
  /** The pointers of the marks covering this segment, outermost (longest) first. */
  pointers: string[];
}

/** Cuts `[0, length)` at every range boundary; overlapping marks nest in each segment. */
export function segments(length: number, ranges: MarkRange[]): Segment[] {
  const cuts = new Set<number>([0, length]);
  for (const range of ranges) {
    cuts.add(range.start);
    cuts.add(range.end);
  }
  const points = [...cuts].filter((cut) => cut >= 0 && cut <= length).sort((a, b) => a - b);
  const byStart = [...ranges].sort((a, b) => a.start - b.start);
  const result: Segment[] = [];
  let active: MarkRange[] = [];
  let next = 0;
  // A sweep: marks open at their start and close at their end, so each cut costs the open marks only.
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i] as number;
    const end = points[i + 1] as number;
    while (next < byStart.length && (byStart[next] as MarkRange).start <= start)
      active.push(byStart[next++] as MarkRange);
    active = active.filter((range) => range.end > start);
    const covering = active
      .filter((range) => range.end >= end)
      .sort((a, b) => b.end - b.start - (a.end - a.start));
    result.push({ start, end, pointers: [...new Set(covering.map((range) => range.pointer))] });
  }
  return result;
}

/**
 * The score name a reviewer's verdict on a field is recorded under: `field.` and the pointer's
 * tokens joined by dots, other characters than score names allow (`[A-Za-z0-9_.:-]`) as `_`.
 */
export function reviewScoreName(pointer: string): string {
  const path = pointer
    .slice(1)
    .split("/")
    .map((token) =>
      token
        .replace(/~1/g, "/")
        .replace(/~0/g, "~")
        .replace(/[^A-Za-z0-9_:-]/g, "_"),
    )
    .join(".");
  return `field.${path}`.slice(0, 100);
}
