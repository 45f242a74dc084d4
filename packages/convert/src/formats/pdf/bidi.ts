/**
 * Right-to-left lines of a PDF back in logical (reading) order. pdfjs reorders the characters
 * inside one text item (it runs the bidi algorithm per item), but a line made of several items
 * comes in content-stream order, which typesetters write left to right: visual order. So the
 * items of a line that holds Hebrew or Arabic are put in visual order by position and then
 * reordered the way the Unicode bidi algorithm does at the level of runs (decision CF8): with a
 * right-to-left base direction the runs read right to left, and a left-to-right run (Latin
 * words, numbers) inside keeps its own order.
 */

export interface PositionedRun {
  text: string;
  x: number;
  /** x + width. */
  end: number;
  size: number;
}

const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const RTL_ALL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/g;
const LTR_ALL = /[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]/g;

export function hasRtl(text: string): boolean {
  return RTL.test(text);
}

type Direction = "rtl" | "ltr" | "neutral";

function directionOf(text: string): Direction {
  const rtl = text.match(RTL_ALL)?.length ?? 0;
  const ltr = text.match(LTR_ALL)?.length ?? 0;
  if (rtl === 0 && ltr === 0) return "neutral";
  return rtl >= ltr ? "rtl" : "ltr";
}

/**
 * The text of a line of runs holding right-to-left script, in logical order. Runs are sorted by x
 * (visual order); the base direction is that of the majority of strong characters.
 */
export function logicalLineText(runs: PositionedRun[]): string {
  const visual = [...runs].sort((a, b) => a.x - b.x);
  const directions = visual.map((run) => directionOf(run.text));
  const all = visual.map((run) => run.text).join(" ");
  const base: Direction = directionOf(all) === "ltr" ? "ltr" : "rtl";
  // Neutral runs (digits, punctuation) take the direction of their neighbours when both agree, else the base.
  const resolved = directions.map((direction, i) => {
    if (direction !== "neutral") return direction;
    const before = directions
      .slice(0, i)
      .reverse()
      .find((d) => d !== "neutral");
    const after = directions.slice(i + 1).find((d) => d !== "neutral");
    return before !== undefined && before === after ? before : base;
  });
  // Spaces between visually adjacent runs, decided on their visual gap.
  const joined = (left: PositionedRun, right: PositionedRun) =>
    right.x - left.end > Math.min(left.size, right.size) * 0.15 ||
    /\s$/.test(left.text) ||
    /^\s/.test(right.text);
  // Runs of the same resolved direction, in visual order.
  const groups: Array<{ direction: Direction; runs: PositionedRun[] }> = [];
  visual.forEach((run, i) => {
    const direction = resolved[i] as Direction;
    const last = groups[groups.length - 1];
    if (last !== undefined && last.direction === direction) last.runs.push(run);
    else groups.push({ direction, runs: [run] });
  });
  const ordered = base === "rtl" ? groups.reverse() : groups;
  const pieces: PositionedRun[] = [];
  for (const group of ordered) {
    const runsInOrder = group.direction === "rtl" ? [...group.runs].reverse() : group.runs;
    pieces.push(...runsInOrder);
  }
  let text = "";
  pieces.forEach((run, i) => {
    if (i > 0) {
      const previous = pieces[i - 1] as PositionedRun;
      // Adjacent in logical order; visually the left one is whichever has the smaller x.
      const [left, right] = previous.x <= run.x ? [previous, run] : [run, previous];
      if (joined(left, right) || Math.abs(visual.indexOf(left) - visual.indexOf(right)) !== 1) text += " ";
    }
    text += run.text;
  });
  return text.replace(/\s+/g, " ").trim();
}
