/**
 * Hamming distances of one query code to every row of a vector cache, in WebAssembly.
 * JavaScript has no popcount: a 16-bit table or SWAR bit tricks cost ~550 ms per million
 * 1536-bit codes on the bench machine, while `i64.popcnt` is one instruction (DESIGN.md:
 * the binary prefilter of a 1M-row knowledge base must fit a 100 ms search). The module is
 * tiny and hand-assembled below (no toolchain in the build); its text form:
 *
 *   (func (export "hamming") (param $q i32) (param $row i32) (param $count i32)
 *         (param $stride i32) (param $blocks i32) (param $out i32)
 *     ;; for each of $count rows ($stride bytes apart, code first): popcount(code XOR query)
 *     ;; over $blocks blocks of 32 bytes, stored as u16 at $out + 2 × row.
 *     (local $r i32) (local $b i32) (local $p i32) (local $qp i32) (local $d i64) ...)
 *
 * Codes are padded to whole 32-byte blocks with zero bits in both the query and the rows.
 */

/** Bytes of a sign code per row for `dim` components: whole 256-bit blocks. */
export function codeBytes(dim: number): number {
  return Math.ceil(dim / 256) * 32;
}

function uleb(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function name(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)];
  return [...uleb(bytes.length), ...bytes];
}

// Opcodes used below.
const BLOCK = 0x02;
const LOOP = 0x03;
const END = 0x0b;
const BR_IF = 0x0d;
const VOID = 0x40;
const GET = 0x20;
const SET = 0x21;
const TEE = 0x22;
const I32_CONST = 0x41;
const I64_CONST = 0x42;
const I32_EQZ = 0x45;
const I32_LT_U = 0x49;
const I32_ADD = 0x6a;
const I64_LOAD = 0x29;
const I64_STORE16 = 0x3d;
const I64_XOR = 0x85;
const I64_POPCNT = 0x7b;
const I64_ADD = 0x7c;

// Parameters and locals.
const Q = 0;
const ROW = 1;
const COUNT = 2;
const STRIDE = 3;
const BLOCKS = 4;
const OUT = 5;
const R = 6;
const B = 7;
const P = 8;
const QP = 9;
const D = 10;

/** d += popcount(load64(p + offset) XOR load64(qp + offset)). */
function xorPopcount(offset: number): number[] {
  return [
    GET,
    D,
    GET,
    P,
    I64_LOAD,
    0,
    ...uleb(offset),
    GET,
    QP,
    I64_LOAD,
    0,
    ...uleb(offset),
    I64_XOR,
    I64_POPCNT,
    I64_ADD,
    SET,
    D,
  ];
}

function addTo(local: number, amount: number[]): number[] {
  return [GET, local, ...amount, I32_ADD, SET, local];
}

const BODY = [
  // locals: 4 × i32 ($r $b $p $qp), 1 × i64 ($d)
  2,
  4,
  0x7f,
  1,
  0x7e,
  BLOCK,
  VOID,
  GET,
  COUNT,
  I32_EQZ,
  BR_IF,
  0,
  GET,
  BLOCKS,
  I32_EQZ,
  BR_IF,
  0,
  LOOP,
  VOID, // rows
  I64_CONST,
  0,
  SET,
  D,
  I32_CONST,
  0,
  SET,
  B,
  GET,
  ROW,
  SET,
  P,
  GET,
  Q,
  SET,
  QP,
  LOOP,
  VOID, // 32-byte blocks of the code
  ...xorPopcount(0),
  ...xorPopcount(8),
  ...xorPopcount(16),
  ...xorPopcount(24),
  ...addTo(P, [I32_CONST, 32]),
  ...addTo(QP, [I32_CONST, 32]),
  GET,
  B,
  I32_CONST,
  1,
  I32_ADD,
  TEE,
  B,
  GET,
  BLOCKS,
  I32_LT_U,
  BR_IF,
  0,
  END,
  GET,
  OUT,
  GET,
  D,
  I64_STORE16,
  1,
  0,
  ...addTo(OUT, [I32_CONST, 2]),
  ...addTo(ROW, [GET, STRIDE]),
  GET,
  R,
  I32_CONST,
  1,
  I32_ADD,
  TEE,
  R,
  GET,
  COUNT,
  I32_LT_U,
  BR_IF,
  0,
  END,
  END,
  END,
];

const MODULE = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00,
  ...section(1, [1, 0x60, 6, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]), // type: (6 × i32) → ()
  ...section(2, [1, ...name("m"), ...name("memory"), 0x02, 0x00, 0x00]), // import memory m.memory
  ...section(3, [1, 0]), // one function of type 0
  ...section(7, [1, ...name("hamming"), 0x00, 0]), // export it
  ...section(10, [1, ...uleb(BODY.length), ...BODY]),
]);

/** The part of the WebAssembly API used here (the repository's TypeScript libs do not declare it). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const compiled = new wasm.Module(MODULE);

/** A wasm memory of `initial` 64 KiB pages that may grow to `maximum`. */
export function wasmMemory(initial: number, maximum: number): WasmMemory {
  return new wasm.Memory({ initial, maximum });
}

export type HammingScan = (
  query: number,
  firstRow: number,
  count: number,
  stride: number,
  blocks: number,
  out: number,
) => void;

/** The Hamming scan over one memory (byte offsets into it). */
export function hammingScan(memory: WasmMemory): HammingScan {
  const instance = new wasm.Instance(compiled, { m: { memory } });
  return instance.exports.hamming as HammingScan;
}
