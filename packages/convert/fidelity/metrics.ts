/**
 * The four conversion-fidelity metrics of issue #23, computed exactly as the issue defines them
 * (decisions CF1–CF4):
 * - word F1: multiset F1 of lower-cased `[\p{L}\p{N}]+` tokens of the visible text (Markdown markup
 *   and HTML tags stripped);
 * - heading recall: share of ground-truth headings (ATX or setext, text normalised) found among the
 *   output's headings, each output heading matching at most once;
 * - table-cell F1: multiset F1 of the normalised non-empty cells of all Markdown (GFM) tables;
 * - reading order: 2·LCS/(m+n) of the two token sequences, first 2,000 tokens of each side.
 * A metric with nothing to measure on either side (no headings, no tables) is `null` and left out
 * of averages rather than counted as a perfect score.
 */

export interface FidelityScores {
  wordF1: number;
  headingRecall: number | null;
  tableCellF1: number | null;
  readingOrder: number;
}

export const METRIC_NAMES = ["wordF1", "headingRecall", "tableCellF1", "readingOrder"] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

const TOKEN = /[\p{L}\p{N}]+/gu;
const READING_ORDER_TOKENS = 2000;

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** `[\p{L}\p{N}]+` tokens, lower-cased, in order. */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** Text normalised for comparison: its tokens joined by one space (so markup, case and punctuation do not count). */
export function normalizeText(text: string): string {
  return tokens(stripInlineMarkup(text)).join(" ");
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : " ";
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Inline markup off: images and links keep their text (not their URL), HTML tags and comments go. */
function stripInlineMarkup(text: string): string {
  return decodeEntities(
    text
      .replace(/<!--[\s\S]*?-->/g, " ")
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<(https?:[^>\s]+)>/g, "$1")
      .replace(/<\/?[a-zA-Z][^>]*>/g, " "),
  );
}

/** The visible text of a Markdown document: what a reader sees once markup and tags are removed. */
export function visibleText(markdown: string): string {
  return stripInlineMarkup(
    markdown
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
      // Fence lines carry an info string (a language name), not content.
      .replace(/^ {0,3}(```|~~~)[^\n]*$/gm, " "),
  );
}

/** Lines of the document outside fenced code blocks (headings and tables are never inside one). */
function linesOutsideCode(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (open !== null && (open[1] as string).startsWith(fence)) fence = null;
      out.push("");
      continue;
    }
    if (open !== null) {
      fence = (open[1] as string).slice(0, 3);
      out.push("");
      continue;
    }
    out.push(line);
  }
  return out;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

function isParagraphLine(line: string): boolean {
  return (
    line.trim() !== "" &&
    !ATX.test(line) &&
    !/^ {0,3}([-*+]|\d{1,9}[.)])([ \t]|$)/.test(line) &&
    !/^ {0,3}>/.test(line) &&
    !/^ {4}/.test(line) &&
    !line.includes("|")
  );
}

/** Heading texts, normalised, in document order: ATX lines and setext (`===` / `---` underlined) paragraphs. */
export function headings(markdown: string): string[] {
  const lines = linesOutsideCode(markdown);
  const out: string[] = [];
  let paragraph: string[] = [];
  for (const line of lines) {
    const atx = ATX.exec(line);
    if (atx !== null) {
      paragraph = [];
      out.push(normalizeText(atx[2] ?? ""));
      continue;
    }
    if (paragraph.length > 0 && SETEXT.test(line)) {
      out.push(normalizeText(paragraph.join(" ")));
      paragraph = [];
      continue;
    }
    if (isParagraphLine(line)) paragraph.push(line);
    else paragraph = [];
  }
  return out.filter((text) => text !== "");
}

/** Splits a table row on unescaped pipes, dropping the optional outer ones. */
function rowCells(line: string): string[] {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|") && !row.endsWith("\\|")) row = row.slice(0, -1);
  const cells: string[] = [];
  let current = "";
  for (let i = 0; i < row.length; i++) {
    const ch = row[i] as string;
    if (ch === "\\" && row[i + 1] === "|") {
      current += "|";
      i++;
    } else if (ch === "|") {
      cells.push(current);
      current = "";
    } else current += ch;
  }
  cells.push(current);
  return cells;
}

/** Normalised non-empty cells of every GFM table (header row, delimiter row, body rows). */
export function tableCells(markdown: string): string[] {
  const lines = linesOutsideCode(markdown);
  const out: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const header = lines[i] as string;
    if (!header.includes("|") || !TABLE_DELIMITER.test(lines[i + 1] as string)) continue;
    if (!(lines[i + 1] as string).includes("|") && !header.trim().startsWith("|")) continue;
    const rows = [header];
    let j = i + 2;
    while (j < lines.length && (lines[j] as string).trim() !== "" && (lines[j] as string).includes("|")) {
      rows.push(lines[j] as string);
      j++;
    }
    for (const row of rows) {
      for (const cell of rowCells(row)) {
        const text = normalizeText(cell.replace(/<br\s*\/?>/gi, " "));
        if (text !== "") out.push(text);
      }
    }
    i = j - 1;
  }
  return out;
}

function counts(items: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const item of items) map.set(item, (map.get(item) ?? 0) + 1);
  return map;
}

/** Size of the multiset intersection. */
function overlap(a: string[], b: string[]): number {
  const left = counts(a);
  let common = 0;
  for (const item of b) {
    const n = left.get(item) ?? 0;
    if (n > 0) {
      common++;
      left.set(item, n - 1);
    }
  }
  return common;
}

/** Multiset F1 of two bags; `null` when both are empty, 0 when only one is. */
export function multisetF1(predicted: string[], truth: string[]): number | null {
  if (predicted.length === 0 && truth.length === 0) return null;
  if (predicted.length === 0 || truth.length === 0) return 0;
  const common = overlap(predicted, truth);
  return (2 * common) / (predicted.length + truth.length);
}

/** Length of the longest common subsequence (two-row dynamic programme). */
export function lcsLength(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  // Tokens to small integers so the inner loop compares numbers.
  const ids = new Map<string, number>();
  const id = (token: string) => {
    let value = ids.get(token);
    if (value === undefined) {
      value = ids.size;
      ids.set(token, value);
    }
    return value;
  };
  const x = Int32Array.from(a, id);
  const y = Int32Array.from(b, id);
  let previous = new Uint32Array(y.length + 1);
  let current = new Uint32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    const xi = x[i - 1];
    for (let j = 1; j <= y.length; j++) {
      current[j] =
        xi === y[j - 1]
          ? (previous[j - 1] as number) + 1
          : Math.max(previous[j] as number, current[j - 1] as number);
    }
    [previous, current] = [current, previous];
  }
  return previous[y.length] as number;
}

/** The four metrics of one output against its ground truth. */
export function scoreDocument(output: string, truth: string): FidelityScores {
  const outTokens = tokens(visibleText(output));
  const truthTokens = tokens(visibleText(truth));
  const truthHeadings = headings(truth);
  let headingRecall: number | null = null;
  if (truthHeadings.length > 0) {
    headingRecall = overlap(headings(output), truthHeadings) / truthHeadings.length;
  }
  const a = outTokens.slice(0, READING_ORDER_TOKENS);
  const b = truthTokens.slice(0, READING_ORDER_TOKENS);
  const readingOrder = a.length + b.length === 0 ? 1 : (2 * lcsLength(a, b)) / (a.length + b.length);
  return {
    wordF1: multisetF1(outTokens, truthTokens) ?? 1,
    headingRecall,
    tableCellF1: multisetF1(tableCells(output), tableCells(truth)),
    readingOrder,
  };
}

/** Mean of each metric over documents, leaving out the documents where a metric is `null`. */
export function meanScores(scores: FidelityScores[]): Record<MetricName, number | null> {
  const out = {} as Record<MetricName, number | null>;
  for (const name of METRIC_NAMES) {
    const values = scores.map((s) => s[name]).filter((v): v is number => v !== null);
    out[name] = values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;
  }
  return out;
}
