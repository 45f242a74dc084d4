/**
 * Ruling lines of a page from its operator list (pdfjs `getOperatorList`): the horizontal and
 * vertical strokes and thin filled rectangles that draw table borders, in page space (the same
 * space as text item transforms). Only asked for on pages whose text looks like a table, because
 * building the operator list costs about half a text extraction (decision CF7).
 */

export interface Ruling {
  /** Horizontal: y is fixed and the line spans [from, to] in x; vertical: x fixed, span in y. */
  orientation: "h" | "v";
  at: number;
  from: number;
  to: number;
}

type Matrix = [number, number, number, number, number, number];

interface OpsTable {
  save: number;
  restore: number;
  transform: number;
  constructPath: number;
  stroke: number;
  closeStroke: number;
  fill: number;
  eoFill: number;
  fillStroke: number;
  eoFillStroke: number;
  closeFillStroke: number;
  closeEOFillStroke: number;
}

// pdfjs DrawOPS codes inside a constructPath buffer.
const MOVE_TO = 0;
const LINE_TO = 1;
const CURVE_TO = 2;
const QUADRATIC_CURVE_TO = 3;
const CLOSE_PATH = 4;

/** Thickness under which a filled rectangle is a line (points), and the shortest ruling kept. */
const THIN = 2.5;
const SHORTEST = 4;
/** Slack for "axis-aligned" (points). */
const SLACK = 0.8;

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function segment(out: Ruling[], x1: number, y1: number, x2: number, y2: number): void {
  if (Math.abs(y1 - y2) <= SLACK && Math.abs(x2 - x1) >= SHORTEST) {
    out.push({ orientation: "h", at: (y1 + y2) / 2, from: Math.min(x1, x2), to: Math.max(x1, x2) });
  } else if (Math.abs(x1 - x2) <= SLACK && Math.abs(y2 - y1) >= SHORTEST) {
    out.push({ orientation: "v", at: (x1 + x2) / 2, from: Math.min(y1, y2), to: Math.max(y1, y2) });
  }
}

/** Rulings drawn by one painted path: stroked axis-aligned segments, or filled hairline rectangles. */
function pathRulings(out: Ruling[], path: ArrayLike<number>, ctm: Matrix, stroked: boolean): void {
  let subpath: Array<[number, number]> = [];
  const flush = (closed: boolean) => {
    if (subpath.length >= 2) {
      if (stroked) {
        for (let i = 1; i < subpath.length; i++) {
          const [x1, y1] = subpath[i - 1] as [number, number];
          const [x2, y2] = subpath[i] as [number, number];
          segment(out, x1, y1, x2, y2);
        }
        if (closed) {
          const [x1, y1] = subpath[subpath.length - 1] as [number, number];
          const [x2, y2] = subpath[0] as [number, number];
          segment(out, x1, y1, x2, y2);
        }
      } else {
        let minX = Number.POSITIVE_INFINITY;
        let minY = Number.POSITIVE_INFINITY;
        let maxX = Number.NEGATIVE_INFINITY;
        let maxY = Number.NEGATIVE_INFINITY;
        for (const [x, y] of subpath) {
          minX = Math.min(minX, x);
          maxX = Math.max(maxX, x);
          minY = Math.min(minY, y);
          maxY = Math.max(maxY, y);
        }
        if (maxY - minY <= THIN) segment(out, minX, (minY + maxY) / 2, maxX, (minY + maxY) / 2);
        else if (maxX - minX <= THIN) segment(out, (minX + maxX) / 2, minY, (minX + maxX) / 2, maxY);
      }
    }
    subpath = [];
  };
  for (let i = 0; i < path.length; ) {
    const op = path[i] as number;
    if (op === MOVE_TO) {
      flush(false);
      subpath.push(apply(ctm, path[i + 1] as number, path[i + 2] as number));
      i += 3;
    } else if (op === LINE_TO) {
      subpath.push(apply(ctm, path[i + 1] as number, path[i + 2] as number));
      i += 3;
    } else if (op === CURVE_TO) {
      // A curve is not a ruling: end the straight run here.
      flush(false);
      subpath.push(apply(ctm, path[i + 5] as number, path[i + 6] as number));
      i += 7;
    } else if (op === QUADRATIC_CURVE_TO) {
      flush(false);
      subpath.push(apply(ctm, path[i + 3] as number, path[i + 4] as number));
      i += 5;
    } else if (op === CLOSE_PATH) {
      flush(true);
      i += 1;
    } else break;
  }
  flush(false);
}

/** Every ruling of an operator list (`fnArray`/`argsArray` as pdfjs returns them). */
export function rulingsOf(
  operatorList: { fnArray: number[]; argsArray: unknown[] },
  OPS: OpsTable,
): Ruling[] {
  const out: Ruling[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const strokes = new Set([
    OPS.stroke,
    OPS.closeStroke,
    OPS.fillStroke,
    OPS.eoFillStroke,
    OPS.closeFillStroke,
    OPS.closeEOFillStroke,
  ]);
  const fills = new Set([OPS.fill, OPS.eoFill]);
  const { fnArray, argsArray } = operatorList;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = multiply(ctm, argsArray[i] as Matrix);
    else if (fn === OPS.constructPath) {
      const [paint, [path]] = argsArray[i] as [number, [ArrayLike<number> | null]];
      if (path === null || path === undefined) continue;
      if (strokes.has(paint)) pathRulings(out, path, ctm, true);
      else if (fills.has(paint)) pathRulings(out, path, ctm, false);
    }
  }
  return out;
}
