import type { BoundingBox } from "../../document-model.js";

// A run's box reaches from below its baseline (descenders) to above it (ascenders and accents), as
// fractions of the font size; a block's box is the union of its runs' boxes (decision PV11).
const DESCENT = 0.2;
const ASCENT = 0.9;

/** The box of a text run at baseline `y` from `x` to `end`, in PDF user space (origin bottom-left). */
export function runBox(x: number, end: number, y: number, size: number): BoundingBox {
  return [Math.min(x, end), y - DESCENT * size, Math.max(x, end), y + ASCENT * size];
}

/** The smallest box holding both (either may be absent). */
export function unionBox(a: BoundingBox | undefined, b: BoundingBox | undefined): BoundingBox | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/** The box as the JSON output carries it: points to two decimals. */
export function roundBox(box: BoundingBox | undefined): BoundingBox | undefined {
  if (box === undefined) return undefined;
  return box.map((value) => Math.round(value * 100) / 100) as BoundingBox;
}
