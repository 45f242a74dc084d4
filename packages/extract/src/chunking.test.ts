import { estimateTokens } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkText } from "./chunking.js";

const lines = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `Line ${i + 1}: part PN-${String(i + 1).padStart(5, "0")} widget\n`,
  ).join("");

describe("chunkText", () => {
  it("covers the input with exact, overlapping substrings within the size budget", () => {
    const text = lines(2000);
    const chunks = chunkText(text, { chunkTokens: 2000, overlapTokens: 100 });
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks[0]?.start).toBe(0);
    expect(chunks.at(-1)?.end).toBe(text.length);
    for (const [i, chunk] of chunks.entries()) {
      expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
      expect(chunk.tokens).toBeLessThanOrEqual(2000);
      expect(chunk.text.endsWith("\n")).toBe(true);
      const previous = chunks[i - 1];
      if (previous !== undefined) {
        expect(chunk.start).toBeLessThan(previous.end); // overlap
        expect(chunk.start).toBeGreaterThan(previous.start); // progress
        expect(estimateTokens(text.slice(chunk.start, previous.end))).toBeLessThanOrEqual(110);
      }
    }
  });

  it("returns one chunk for a small input and none for an empty one", () => {
    expect(chunkText("short text", { chunkTokens: 100, overlapTokens: 10 })).toHaveLength(1);
    expect(chunkText("", { chunkTokens: 100, overlapTokens: 10 })).toEqual([]);
  });

  it("cuts a line longer than a chunk at whitespace", () => {
    const text = "word ".repeat(5000);
    const chunks = chunkText(text, { chunkTokens: 500, overlapTokens: 0 });
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.map((c) => c.text).join("")).toBe(text);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(500);
  });

  it("always covers every character (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 3000 }),
        fc.integer({ min: 5, max: 400 }),
        fc.integer({ min: 0, max: 200 }),
        (text, size, overlap) => {
          const chunks = chunkText(text, { chunkTokens: size, overlapTokens: overlap });
          let covered = 0;
          for (const chunk of chunks) {
            expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
            expect(chunk.start).toBeLessThanOrEqual(covered);
            covered = Math.max(covered, chunk.end);
          }
          expect(covered).toBe(text.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
