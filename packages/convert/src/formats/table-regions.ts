/**
 * Splits a sheet's grid into its table regions: blocks of cells separated by fully empty rows or
 * columns. People put several tables on one sheet; rendered as one grid they become a single
 * padded table whose header row belongs to only one of them.
 */

interface Box {
  top: number;
  bottom: number; // exclusive
  left: number;
  right: number; // exclusive
}

const isEmpty = (cell: string | undefined): boolean => cell === undefined || cell.trim() === "";

/** Runs of indexes in [from, to) for which `filled` holds, in order. */
function runs(from: number, to: number, filled: (i: number) => boolean): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = -1;
  for (let i = from; i < to; i++) {
    if (filled(i)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push([start, i]);
      start = -1;
    }
  }
  if (start >= 0) out.push([start, to]);
  return out;
}

/**
 * Recursive XY cut: split by empty rows first, then by empty columns inside each band, until no
 * cut remains. Regions come out top to bottom, then left to right within a band.
 */
function cut(grid: readonly (readonly string[])[], box: Box, out: Box[]): void {
  const rowFilled = (r: number) => {
    const row = grid[r] ?? [];
    for (let c = box.left; c < box.right; c++) if (!isEmpty(row[c])) return true;
    return false;
  };
  const bands = runs(box.top, box.bottom, rowFilled);
  if (bands.length === 0) return;
  if (bands.length > 1) {
    for (const [top, bottom] of bands) cut(grid, { ...box, top, bottom }, out);
    return;
  }
  const [top, bottom] = bands[0] as [number, number];
  const colFilled = (c: number) => {
    for (let r = top; r < bottom; r++) if (!isEmpty(grid[r]?.[c])) return true;
    return false;
  };
  const columns = runs(box.left, box.right, colFilled);
  if (columns.length === 1) {
    const [left, right] = columns[0] as [number, number];
    out.push({ top, bottom, left, right });
    return;
  }
  for (const [left, right] of columns) cut(grid, { top, bottom, left, right }, out);
}

/** The grid's table regions in reading order, each a rectangular block of cell texts. */
export function tableRegions(grid: readonly (readonly string[])[]): string[][][] {
  let width = 0;
  for (const row of grid) width = Math.max(width, row.length);
  const boxes: Box[] = [];
  cut(grid, { top: 0, bottom: grid.length, left: 0, right: width }, boxes);
  return boxes.map((box) =>
    grid
      .slice(box.top, box.bottom)
      .map((row) => Array.from({ length: box.right - box.left }, (_, i) => row[box.left + i] ?? "")),
  );
}
