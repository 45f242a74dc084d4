import { createHash } from "node:crypto";

/**
 * The vector the OpenAI upstream returns for `text` by default: unit length, `dimensions` wide,
 * seeded from a SHA-256 of the text, so equal texts give equal vectors in every run. It carries
 * no meaning (similar texts are not close); it exists so tests can predict the bytes. Values are
 * rounded to float32 so the `float` and `base64` encodings decode to the same numbers.
 */
export function deterministicEmbedding(text: string, dimensions = 1536): number[] {
  const seed = createHash("sha256").update(text).digest();
  const next = sfc32(seed.readUInt32LE(0), seed.readUInt32LE(4), seed.readUInt32LE(8), seed.readUInt32LE(12));
  const raw = Array.from({ length: dimensions }, () => next() * 2 - 1);
  const norm = Math.sqrt(raw.reduce((sum, value) => sum + value * value, 0)) || 1;
  return raw.map((value) => Math.fround(value / norm));
}

/** A vector as OpenAI's `encoding_format: "base64"` sends it: little-endian float32, base64. */
export function encodeFloat32Base64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [index, value] of vector.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString("base64");
}

// sfc32: a small, well-distributed 32-bit generator; Math.random cannot be seeded.
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
