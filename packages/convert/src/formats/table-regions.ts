/**
 * Splits a sheet's cells into its table regions: blocks of cells separated by fully empty rows or
 * columns. People put several tables on one sheet; rendered as one grid they become a single
 * padded table whose header row belongs to only one of them. Works on the real cells only, so a
 * sheet whose declared range is huge but holds few cells costs what its cells cost.
 */

export interface SheetCell {
  /** 0-based row and column. */
  r: number;
  c: number;
  text: string;
}

export interface TableRegion {
  top: number;
  left: number;
  height: number;
  width: number;
  cells: SheetCell[];
}

/** Groups of `cells` whose `key` values are consecutive, in ascending order of the key. */
function runs(cells: SheetCell[], key: (cell: SheetCell) => number): SheetCell[][] {
  const sorted = [...cells].sort((a, b) => key(a) - key(b));
  const out: SheetCell[][] = [];
  let current: SheetCell[] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const cell of sorted) {
    if (key(cell) > last + 1 && current.length > 0) {
      out.push(current);
      current = [];
    }
    current.push(cell);
    last = key(cell);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Recursive XY cut: split by empty rows first, then by empty columns inside each band, until no
 * cut remains. Regions come out top to bottom, then left to right within a band.
 */
function cut(cells: SheetCell[], out: TableRegion[]): void {
  const bands = runs(cells, (cell) => cell.r);
  if (bands.length > 1) {
    for (const band of bands) cut(band, out);
    return;
  }
  const columns = runs(cells, (cell) => cell.c);
  if (columns.length > 1) {
    for (const column of columns) cut(column, out);
    return;
  }
  let top = Number.POSITIVE_INFINITY;
  let bottom = -1;
  let left = Number.POSITIVE_INFINITY;
  let right = -1;
  for (const { r, c } of cells) {
    top = Math.min(top, r);
    bottom = Math.max(bottom, r);
    left = Math.min(left, c);
    right = Math.max(right, c);
  }
  out.push({ top, left, height: bottom - top + 1, width: right - left + 1, cells });
}

/** The table regions of the non-blank cells, in reading order. Whitespace-only cells are blank. */
export function tableRegions(cells: readonly SheetCell[]): TableRegion[] {
  const filled = cells.filter((cell) => cell.text.trim() !== "");
  const out: TableRegion[] = [];
  if (filled.length > 0) cut(filled, out);
  return out;
}

/** A region as the rectangular rows of cell texts a table block holds. */
export function regionRows(region: TableRegion): string[][] {
  const rows = Array.from({ length: region.height }, () => new Array<string>(region.width).fill(""));
  for (const cell of region.cells) {
    const row = rows[cell.r - region.top];
    if (row !== undefined) row[cell.c - region.left] = cell.text;
  }
  return rows;
}
