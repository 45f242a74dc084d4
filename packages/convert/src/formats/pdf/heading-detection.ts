/**
 * Headings of a PDF from font statistics (decision CF6): the body size is the size that carries
 * the most characters in the document; a short line set larger than the body is a heading, its
 * level the rank of its size among the heading sizes. A short standalone line at body size that
 * starts with section numbering (`2`, `2.1`, `A.3`) and does not end like a sentence is a heading
 * (also one set slightly larger than the body, below the 1.15× that makes a heading size)
 * too, its level the depth of the numbering (bold headings set at body size are the usual case:
 * pdfjs's text content carries no font weight).
 */

export interface HeadingLine {
  text: string;
  size: number;
  /** Distance to the previous line on the page (0 for the first line of a page). */
  gap: number;
}

export interface FontStatistics {
  body: number;
  /** Sizes that make headings, largest first. */
  headingSizes: number[];
}

/** Longest line (characters) that can be a heading. */
const LONGEST_HEADING = 200;
const LONGEST_NUMBERED_HEADING = 90;
/** Below this many characters in all, font statistics are not trusted (see fontStatistics). */
const SHORT_DOCUMENT = 200;
const NUMBERED = /^((?:\d{1,2}|[A-Z])(?:\.\d{1,2}){0,4})(\.?)\s+(\S.*)$/u;

export function fontStatistics(lines: Array<{ text: string; size: number }>): FontStatistics {
  const weights = new Map<number, number>();
  let characters = 0;
  for (const line of lines) {
    weights.set(line.size, (weights.get(line.size) ?? 0) + line.text.length);
    characters += line.text.length;
  }
  // Ties go to the smaller size: headings rarely carry most of the text.
  let body = 0;
  let best = -1;
  for (const [size, weight] of weights) {
    if (weight > best || (weight === best && size < body)) {
      best = weight;
      body = size;
    }
  }
  // Too little text for statistics (a cover, a one-line memo under its title): the title can carry
  // most of the characters, so the smallest size is the body.
  if (characters < SHORT_DOCUMENT) body = Math.min(...weights.keys());
  const headingSizes = [...weights.keys()].filter((size) => size >= body * 1.15).sort((x, y) => y - x);
  return { body, headingSizes };
}

/** The heading level of a line, or null when it is body text. */
export function headingLevel(line: HeadingLine, stats: FontStatistics): number | null {
  const rank = stats.headingSizes.indexOf(line.size);
  if (rank >= 0 && line.text.length <= LONGEST_HEADING) return Math.min(6, rank + 1);
  // Numbered headings set at body size or a little above it (too little to count as a heading size).
  if (line.size < stats.body - 0.6 || line.text.length > LONGEST_NUMBERED_HEADING) return null;
  const numbered = NUMBERED.exec(line.text);
  if (numbered === null) return null;
  const [, numbering = "", dot, title = ""] = numbered;
  // Sentence ends, lowercase starts and long titles are list items or prose, not headings.
  if (/[.,;:!?]$/.test(title) || !/^\p{Lu}/u.test(title) || title.split(/\s+/).length > 12) return null;
  // A lone letter or "1." is as often a list item: only a line set apart from the one before counts.
  const standalone = line.gap === 0 || line.gap > line.size * 1.5;
  if (!standalone) return null;
  if (/^[A-Z]$/.test(numbering) && dot === "") return null;
  const depth = numbering.split(".").length;
  return Math.min(6, stats.headingSizes.length + depth);
}
