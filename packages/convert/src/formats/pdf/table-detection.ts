/**
 * Tables in a PDF page from the layout of its text (decision CF7): consecutive lines whose runs
 * fall into two or more cells separated by wide gaps, with cells aligned into columns, are a
 * table. When the page draws ruling lines around such lines, the rulings decide: vertical rules
 * are the column boundaries, the box they enclose takes in rows with a single or empty cell, and
 * lines between the same two horizontal rules are one row (a wrapped cell). Without rulings the
 * columns are the x-ranges the cells occupy (unruled tables), one line per row.
 */
import type { PositionedRun } from "./bidi.js";
import type { Ruling } from "./rulings.js";

export interface TableLine {
  text: string;
  y: number;
  size: number;
  runs: PositionedRun[];
}

export interface DetectedTable {
  /** Indexes of the first and last line (inclusive) the table replaces. */
  first: number;
  last: number;
  rows: string[][];
}

interface Cell {
  text: string;
  x: number;
  end: number;
}

/** A gap wider than this many font sizes separates two cells (justified word spacing stays below). */
const CELL_GAP = 1.4;
/** A cell longer than this is running text (a two-column page, not a table). */
const LONGEST_CELL = 60;

/** The line's runs grouped into cells at wide horizontal gaps. */
export function cellsOf(line: TableLine): Cell[] {
  const runs = [...line.runs].filter((r) => r.text.trim() !== "").sort((a, b) => a.x - b.x);
  const cells: Cell[] = [];
  for (const run of runs) {
    const last = cells[cells.length - 1];
    if (last !== undefined && run.x - last.end <= Math.max(run.size, line.size) * CELL_GAP) {
      last.text = run.x - last.end > run.size * 0.15 ? `${last.text} ${run.text}` : `${last.text}${run.text}`;
      last.end = Math.max(last.end, run.end);
    } else cells.push({ text: run.text, x: run.x, end: run.end });
  }
  for (const cell of cells) cell.text = cell.text.replace(/\s+/g, " ").trim();
  return cells;
}

function isRowLike(cells: Cell[]): boolean {
  return cells.length >= 2 && cells.every((cell) => cell.text.length <= LONGEST_CELL);
}

/** A gap wide enough to separate cells between two runs (runs out of x order count too); no allocation. */
function hasWideGap(line: TableLine): boolean {
  const { runs } = line;
  for (let i = 1; i < runs.length; i++) {
    const previous = runs[i - 1] as PositionedRun;
    const run = runs[i] as PositionedRun;
    const gap = run.x - previous.end;
    if (gap > Math.max(run.size, line.size) * CELL_GAP || gap < -line.size) return true;
  }
  return false;
}

/** Whether a page's lines may hold a table: two consecutive lines of several short cells. Cheap. */
export function mayHoldTable(lines: TableLine[]): boolean {
  let previous = false;
  for (const line of lines) {
    const rowLike = hasWideGap(line) && isRowLike(cellsOf(line));
    if (rowLike && previous) return true;
    previous = rowLike;
  }
  return false;
}

/** Column spans: overlapping cell x-ranges merged. */
function columnsFromCells(rows: Cell[][]): Array<[number, number]> {
  const spans = rows
    .flat()
    .map((c): [number, number] => [c.x, c.end])
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span[0] <= last[1] + 1) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}

function columnOf(columns: Array<[number, number]>, cell: Cell): number {
  const center = (cell.x + cell.end) / 2;
  let best = 0;
  let distance = Number.POSITIVE_INFINITY;
  columns.forEach(([from, to], i) => {
    const d = center < from ? from - center : center > to ? center - to : 0;
    if (d < distance) {
      distance = d;
      best = i;
    }
  });
  return best;
}

/** A cell that spans several columns, re-read run by run: each column's runs are one cell. */
function splitAtColumns(line: TableLine, cell: Cell, columns: Array<[number, number]>): Cell[] {
  const spanned = columns.filter(([from, to]) => cell.x < to && cell.end > from).length;
  if (spanned < 2) return [cell];
  const runs = line.runs.filter((run) => run.x >= cell.x - 0.5 && run.end <= cell.end + 0.5);
  const groups = new Map<number, PositionedRun[]>();
  for (const run of runs) {
    const column = columnOf(columns, { text: run.text, x: run.x, end: run.end });
    const group = groups.get(column);
    if (group === undefined) groups.set(column, [run]);
    else group.push(run);
  }
  if (groups.size < 2) return [cell];
  return [...groups.values()].flatMap((group) => cellsOf({ ...line, runs: group }));
}

function grid(rows: Cell[][][], width: number): string[][] {
  return rows.map((row) =>
    Array.from({ length: width }, (_, c) => (row[c] ?? []).map((cell) => cell.text).join(" ")),
  );
}

/** Collinear vertical rulings joined (tables drawn cell by cell give one short rule per row). */
function joinedVerticals(rulings: Ruling[]): Ruling[] {
  const byX = new Map<number, Ruling[]>();
  for (const r of rulings) {
    if (r.orientation !== "v") continue;
    const key = Math.round(r.at);
    byX.set(key, [...(byX.get(key) ?? []), r]);
  }
  const out: Ruling[] = [];
  for (const [x, group] of byX) {
    group.sort((a, b) => a.from - b.from);
    let current: Ruling | null = null;
    for (const r of group) {
      if (current !== null && r.from <= current.to + 2) current.to = Math.max(current.to, r.to);
      else {
        current = { orientation: "v", at: x, from: r.from, to: r.to };
        out.push(current);
      }
    }
  }
  return out;
}

/** The rulings around lines first..last: vertical rules crossing them and the box they span. */
function ruledBox(lines: TableLine[], first: number, last: number, rulings: Ruling[]) {
  // Baselines sit a little above a row's bottom rule: measure the lines' extent with their size.
  const top = (lines[first] as TableLine).y + (lines[first] as TableLine).size;
  const bottom = (lines[last] as TableLine).y;
  const verticals = joinedVerticals(rulings).filter((r) => r.from <= top && r.to >= bottom);
  if (verticals.length < 2) return null;
  const xs = [...new Set(verticals.map((r) => r.at))].sort((a, b) => a - b);
  const boxTop = Math.max(...verticals.map((r) => r.to));
  const boxBottom = Math.min(...verticals.map((r) => r.from));
  const left = xs[0] as number;
  const right = xs[xs.length - 1] as number;
  const horizontals = [
    ...new Set(
      rulings
        .filter(
          (r) =>
            r.orientation === "h" &&
            r.at >= boxBottom - 2 &&
            r.at <= boxTop + 2 &&
            r.to > left &&
            r.from < right,
        )
        .map((r) => Math.round(r.at)),
    ),
  ].sort((a, b) => b - a);
  return { xs, boxTop, boxBottom, horizontals };
}

/**
 * Whether rulings could change a table found from text alone: a row missing a cell (an empty or
 * merged cell, a wrapped line) or a line just above or below it (a row of one cell). When none
 * could, the operator list is not needed (decision CF7).
 */
export function needsRulings(lines: TableLine[], tables: DetectedTable[]): boolean {
  for (const table of tables) {
    if (table.rows.some((row) => row.some((cell) => cell === ""))) return true;
    const first = lines[table.first] as TableLine;
    const last = lines[table.last] as TableLine;
    const before = lines[table.first - 1];
    const after = lines[table.last + 1];
    if (before !== undefined && Math.abs(before.y - first.y) <= first.size * 1.5) return true;
    if (after !== undefined && Math.abs(last.y - after.y) <= last.size * 1.5) return true;
  }
  return false;
}

/** Tables among one page's lines (top to bottom, as read), with the rulings drawn on the page. */
export function detectTables(lines: TableLine[], rulings: Ruling[]): DetectedTable[] {
  const tables: DetectedTable[] = [];
  const cells = lines.map((line) => (line.runs.length >= 2 ? cellsOf(line) : []));
  let i = 0;
  while (i < lines.length) {
    if (!isRowLike(cells[i] as Cell[])) {
      i++;
      continue;
    }
    let j = i;
    while (
      j + 1 < lines.length &&
      isRowLike(cells[j + 1] as Cell[]) &&
      Math.abs((lines[j] as TableLine).y - (lines[j + 1] as TableLine).y) <=
        (lines[j] as TableLine).size * 3.2
    )
      j++;
    const box = ruledBox(lines, i, j, rulings);
    if (box !== null) {
      // Take in the lines inside the ruled box (rows with one cell or a wrapped cell).
      while (
        i > 0 &&
        (lines[i - 1] as TableLine).y <= box.boxTop + 1 &&
        (lines[i - 1] as TableLine).y >= box.boxBottom - 1
      )
        i--;
      while (
        j + 1 < lines.length &&
        (lines[j + 1] as TableLine).y <= box.boxTop + 1 &&
        (lines[j + 1] as TableLine).y >= box.boxBottom - 1
      )
        j++;
    }
    if (j === i) {
      i++;
      continue;
    }
    const span = lines.slice(i, j + 1);
    const lineCells = span.map((line) => cellsOf(line));
    let rows: string[][];
    if (box !== null) {
      const columns: Array<[number, number]> = [];
      for (let k = 1; k < box.xs.length; k++) columns.push([box.xs[k - 1] as number, box.xs[k] as number]);
      // One row per band between horizontal rules (one per line when the rules are missing).
      const bandOf = (y: number) =>
        box.horizontals.length >= 2 ? box.horizontals.filter((h) => h > y).length : -1;
      const byBand: Cell[][][] = [];
      let lastBand: number | null = null;
      span.forEach((line, k) => {
        const band = bandOf(line.y);
        if (band === -1 || band !== lastBand || byBand.length === 0) byBand.push(columns.map(() => []));
        lastBand = band;
        const row = byBand[byBand.length - 1] as Cell[][];
        for (const cell of lineCells[k] as Cell[]) (row[columnOf(columns, cell)] as Cell[]).push(cell);
      });
      rows = grid(byBand, columns.length);
    } else {
      // Columns from the rows split into the most cells: one row whose cells sit closer than the
      // cell gap (a long text beside a number) must not merge two columns for the whole table.
      const most = Math.max(...lineCells.map((row) => row.length));
      const columns = columnsFromCells(lineCells.filter((row) => row.length === most));
      if (columns.length < 2) {
        i = j + 1;
        continue;
      }
      const byLine = lineCells.map((row, k) => {
        const out: Cell[][] = columns.map(() => []);
        for (const cell of row)
          for (const part of splitAtColumns(span[k] as TableLine, cell, columns))
            (out[columnOf(columns, part)] as Cell[]).push(part);
        return out;
      });
      rows = grid(byLine, columns.length);
    }
    const texts = rows.flat().filter((t) => t !== "");
    const sorted = texts.map((t) => t.length).sort((a, b) => a - b);
    if (rows.length >= 2 && (sorted[Math.floor(sorted.length / 2)] ?? 0) <= 40)
      tables.push({ first: i, last: j, rows });
    i = j + 1;
  }
  return tables;
}
