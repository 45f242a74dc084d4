/**
 * Splits a long input into overlapping chunks measured with the token estimate of core. Chunks
 * end at line breaks where possible (a line longer than a chunk is cut at whitespace), and every
 * chunk is an exact substring of the input, so later checks can search chunk texts verbatim.
 */
import { estimateTokens } from "@groundwork/core";

export interface ChunkingOptions {
  /** Target size of one chunk, in estimated tokens. */
  chunkTokens: number;
  /** How much of the previous chunk's end each chunk repeats, in estimated tokens. */
  overlapTokens: number;
}

export interface TextChunk {
  index: number;
  /** Offsets into the input: `text === input.slice(start, end)`. */
  start: number;
  end: number;
  text: string;
  tokens: number;
}

interface Segment {
  start: number;
  end: number;
  tokens: number;
}

/** Lines (each with its line break), with over-long lines cut at whitespace into pieces that fit. */
function segments(text: string, maxTokens: number): Segment[] {
  const out: Segment[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    end = end === -1 ? text.length : end + 1;
    const line = text.slice(start, end);
    const tokens = estimateTokens(line);
    if (tokens <= maxTokens) {
      out.push({ start, end, tokens });
    } else {
      splitLongLine(text, start, end, maxTokens, out);
    }
    start = end;
  }
  return out;
}

function splitLongLine(text: string, start: number, end: number, maxTokens: number, out: Segment[]): void {
  // Words of letters cost one token per 6 characters at most and digits one per 3, so a piece of
  // `maxTokens` characters never exceeds the budget; cutting at whitespace keeps words whole.
  let position = start;
  while (position < end) {
    let cut = Math.min(end, position + Math.max(1, maxTokens));
    if (cut < end) {
      const space = text.lastIndexOf(" ", cut);
      if (space > position) cut = space + 1;
    }
    out.push({ start: position, end: cut, tokens: estimateTokens(text.slice(position, cut)) });
    position = cut;
  }
}

export function chunkText(text: string, options: ChunkingOptions): TextChunk[] {
  const chunkTokens = Math.max(1, Math.floor(options.chunkTokens));
  const overlapTokens = Math.max(0, Math.min(Math.floor(options.overlapTokens), Math.floor(chunkTokens / 2)));
  const parts = segments(text, chunkTokens);
  const chunks: TextChunk[] = [];
  let first = 0;
  while (first < parts.length) {
    let last = first;
    let tokens = parts[first]?.tokens ?? 0;
    while (last + 1 < parts.length && tokens + (parts[last + 1]?.tokens ?? 0) <= chunkTokens) {
      last += 1;
      tokens += parts[last]?.tokens ?? 0;
    }
    const start = parts[first]?.start ?? 0;
    const end = parts[last]?.end ?? text.length;
    chunks.push({ index: chunks.length, start, end, text: text.slice(start, end), tokens });
    if (last + 1 >= parts.length) break;
    // The next chunk starts far enough back to repeat about `overlapTokens` of this one, and always
    // moves forward by at least one segment.
    let next = last + 1;
    let overlap = 0;
    while (next - 1 > first && overlap + (parts[next - 1]?.tokens ?? 0) <= overlapTokens) {
      next -= 1;
      overlap += parts[next]?.tokens ?? 0;
    }
    first = next;
  }
  return chunks;
}
