/**
 * The rows of one revision as a single byte string (a "pack"), in the layout the in-memory
 * scan holds them (int8-scan.ts): a store writes it once when the revision starts being served
 * and reads it back in one read on a cold start, instead of one row per chunk (HP40).
 *
 * Layout, little-endian: u32 row count, u32 width, then per row in row order the chunk seq
 * (float64), the factor step × 1/‖v‖ (float32), the sign code (`codeBytes(width)` bytes) and the
 * int8 components (`width` bytes) — each field as one run over all rows, so a reader copies four
 * runs rather than touching every row.
 */
import { codeBytes } from "./hamming-wasm.js";

/** Header of a stored int8 code (int8-scan.ts `int8Code`): step and 1/‖v‖ as float32, then the components. */
export const CODE_HEADER = 8;
const PACK_HEADER = 8;

/** One row as a store reads it: chunk seq and int8 code. */
export type ColumnSource = [number, Buffer];

/** Where each run of a pack starts. */
export interface PackLayout {
  count: number;
  dim: number;
  seqs: number;
  factors: number;
  signs: number;
  codes: number;
  bytes: number;
}

export function packLayout(count: number, dim: number): PackLayout {
  const seqs = PACK_HEADER;
  const factors = seqs + count * 8;
  const signs = factors + count * 4;
  const codes = signs + count * (count === 0 ? 0 : codeBytes(dim));
  return { count, dim, seqs, factors, signs, codes, bytes: codes + count * dim };
}

/** The layout of a stored pack, or null when the bytes are not one (wrong length). */
export function readPackLayout(pack: Uint8Array): PackLayout | null {
  if (pack.byteLength < PACK_HEADER) return null;
  const view = new DataView(pack.buffer, pack.byteOffset, pack.byteLength);
  const layout = packLayout(view.getUint32(0, true), view.getUint32(4, true));
  return layout.bytes === pack.byteLength ? layout : null;
}

/** The layout of a pack's head (a pack without its int8 run, `splitPack`), or null when the bytes are not one. */
export function readPackHead(head: Uint8Array): PackLayout | null {
  if (head.byteLength < PACK_HEADER) return null;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const layout = packLayout(view.getUint32(0, true), view.getUint32(4, true));
  return layout.codes === head.byteLength ? layout : null;
}

/**
 * A pack split into its head (header, seqs, factors, sign codes) and its int8 run, each a copy
 * with a buffer of its own — the run can become an in-memory segment as it is, and both can be
 * handed to another thread (HP63). Null when the bytes are not a pack.
 */
export function splitPack(pack: Uint8Array): { head: Uint8Array; codes: Int8Array } | null {
  const layout = readPackLayout(pack);
  if (layout === null) return null;
  const head = new Uint8Array(pack.subarray(0, layout.codes)); // a copy (Buffer#slice would be a view)
  const codes = new Int8Array(layout.count * layout.dim);
  codes.set(new Int8Array(pack.buffer, pack.byteOffset + layout.codes, codes.length));
  return { head, codes };
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
export function packRows(source: Iterable<ColumnSource>): Buffer | null {
  const rows = Array.from(source);
  const first = rows[0];
  const dim = first === undefined ? 0 : first[1].byteLength - CODE_HEADER;
  const layout = packLayout(rows.length, dim);
  const pack = Buffer.alloc(layout.bytes);
  pack.writeUInt32LE(rows.length, 0);
  pack.writeUInt32LE(dim, 4);
  const signBytes = rows.length === 0 ? 0 : codeBytes(dim);
  for (let i = 0; i < rows.length; i++) {
    const [seq, code] = rows[i] as ColumnSource;
    if (code.byteLength - CODE_HEADER !== dim) return null;
    pack.writeDoubleLE(seq, layout.seqs + i * 8);
    pack.writeFloatLE(code.readFloatLE(0) * code.readFloatLE(4), layout.factors + i * 4);
    const components = new Int8Array(code.buffer, code.byteOffset + CODE_HEADER, dim);
    writeSignCode(components, pack, layout.signs + i * signBytes, signBytes);
    pack.set(code.subarray(CODE_HEADER), layout.codes + i * dim);
  }
  return pack;
}
