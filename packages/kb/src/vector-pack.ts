/**
 * The rows of one revision as two byte strings (a "pack"), in the layout the in-memory scan
 * holds them (int8-scan.ts): a store writes it once when the revision starts being served and
 * reads it back in two reads on a cold start, instead of one row per chunk (HP40).
 *
 * The head, little-endian: u32 row count, u32 width, then per row in row order the chunk seq
 * (float64), the factor step × 1/‖v‖ (float32) and the sign code (`codeBytes(width)` bytes) —
 * each field as one run over all rows, so a reader copies three runs rather than touching every
 * row. The codes: the int8 components (`width` bytes per row, row-major), apart so that they
 * become the rows' memory as they are read, without a copy (HP63).
 */
import { codeBytes } from "./hamming-wasm.js";

/** Header of a stored int8 code (int8-scan.ts `int8Code`): step and 1/‖v‖ as float32, then the components. */
export const CODE_HEADER = 8;
const PACK_HEADER = 8;

/** One row as a store reads it: chunk seq and int8 code. */
export type ColumnSource = [number, Buffer];

/** A revision's pack: the head (count, width, seqs, factors, sign codes) and the int8 codes. */
export interface PackParts {
  head: Uint8Array;
  codes: Int8Array;
}

/** Where each run of a pack's head starts, and its length (`bytes`). */
export interface PackLayout {
  count: number;
  dim: number;
  seqs: number;
  factors: number;
  signs: number;
  bytes: number;
}

export function packLayout(count: number, dim: number): PackLayout {
  const seqs = PACK_HEADER;
  const factors = seqs + count * 8;
  const signs = factors + count * 4;
  return { count, dim, seqs, factors, signs, bytes: signs + count * (count === 0 ? 0 : codeBytes(dim)) };
}

/** The layout of a stored pack, or null when its parts are not one (wrong lengths). */
export function readPackLayout({ head, codes }: PackParts): PackLayout | null {
  if (head.byteLength < PACK_HEADER) return null;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const layout = packLayout(view.getUint32(0, true), view.getUint32(4, true));
  return layout.bytes === head.byteLength && codes.length === layout.count * layout.dim ? layout : null;
}

/** Sign bits of int8 components: bit set exactly where the component is positive. */
export function writeSignCode(components: Int8Array, out: Uint8Array, at: number, bytes: number): void {
  for (let byte = 0; byte < bytes; byte++) {
    let bits = 0;
    const first = byte * 8;
    // Branch-free: (-c) >>> 31 is 1 exactly when c > 0.
    for (let b = 0; b < 8; b++) bits |= (-(components[first + b] ?? 0) >>> 31) << b;
    out[at + byte] = bits;
  }
}

/**
 * The pack of a revision's rows (seq and stored int8 code each). Null when the codes have
 * different widths (the caller falls back to exact search, as for rows read one by one).
 */
export function packRows(source: Iterable<ColumnSource>): PackParts | null {
  const rows = Array.from(source);
  const first = rows[0];
  const dim = first === undefined ? 0 : first[1].byteLength - CODE_HEADER;
  const layout = packLayout(rows.length, dim);
  const head = Buffer.alloc(layout.bytes);
  const codes = new Int8Array(rows.length * dim);
  head.writeUInt32LE(rows.length, 0);
  head.writeUInt32LE(dim, 4);
  const signBytes = rows.length === 0 ? 0 : codeBytes(dim);
  for (let i = 0; i < rows.length; i++) {
    const [seq, code] = rows[i] as ColumnSource;
    if (code.byteLength - CODE_HEADER !== dim) return null;
    head.writeDoubleLE(seq, layout.seqs + i * 8);
    head.writeFloatLE(code.readFloatLE(0) * code.readFloatLE(4), layout.factors + i * 4);
    const components = new Int8Array(code.buffer, code.byteOffset + CODE_HEADER, dim);
    writeSignCode(components, head, layout.signs + i * signBytes, signBytes);
    codes.set(components, i * dim);
  }
  return { head, codes };
}
