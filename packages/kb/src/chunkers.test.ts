import { estimateTokens } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkDocument, chunkFixed, chunkHierarchical } from "./chunkers.js";
import type { ChunkingSettings } from "./config.js";
import type { SourceDocument } from "./source-document.js";

const settings = (over: Partial<ChunkingSettings> = {}): ChunkingSettings => ({
  chunkingStrategy: "HIERARCHICAL",
  chunkSize: 50,
  chunkOverlap: 10,
  parentChunkSize: 200,
  ...over,
});

function sentences(n: number, word = "alpha"): string {
  return Array.from(
    { length: n },
    (_, i) => `Sentence ${i} talks about ${word} number ${i} in some detail.`,
  ).join(" ");
}

const doc: SourceDocument = {
  metadata: {},
  blocks: [
    { kind: "heading", level: 1, text: "Manual", page: 1 },
    { kind: "text", text: sentences(20), page: 1 },
    { kind: "heading", level: 2, text: "Safety", page: 2 },
    { kind: "text", text: sentences(30, "beta"), page: 2 },
    { kind: "text", text: sentences(5, "gamma"), page: 3 },
    { kind: "heading", level: 2, text: "Care" },
    { kind: "text", text: "Short section." },
  ],
};

describe("hierarchical chunking", () => {
  const drafts = chunkHierarchical(doc, settings());
  const parents = drafts.filter((d) => d.kind === "parent");
  const children = drafts.filter((d) => d.kind === "child");

  it("indexes children no larger than chunkSize inside parents no larger than parentChunkSize", () => {
    expect(parents.length).toBeGreaterThan(2);
    expect(children.length).toBeGreaterThan(parents.length);
    for (const child of children) expect(estimateTokens(child.text)).toBeLessThanOrEqual(50 + 2);
    for (const parent of parents) expect(estimateTokens(parent.text)).toBeLessThanOrEqual(200 + 4);
  });

  it("every child is an exact substring of its parent (matchedSpan)", () => {
    for (const child of children) {
      const parent = drafts[child.parentPosition ?? -1];
      expect(parent?.kind).toBe("parent");
      expect(parent?.text.includes(child.text)).toBe(true);
    }
  });

  it("carries heading paths and page ranges; parents never cross sections", () => {
    expect(new Set(parents.map((p) => JSON.stringify(p.headingPath)))).toEqual(
      new Set([
        JSON.stringify(["Manual"]),
        JSON.stringify(["Manual", "Safety"]),
        JSON.stringify(["Manual", "Care"]),
      ]),
    );
    const safety = parents.filter((p) => p.headingPath.at(-1) === "Safety");
    expect(safety[0]?.pageStart).toBe(2);
    expect(safety.at(-1)?.pageEnd).toBe(3);
    // A block without a page keeps the last known page.
    expect(parents.find((p) => p.headingPath.at(-1) === "Care")?.pageStart).toBe(3);
  });

  it("consecutive children overlap by at most chunkOverlap tokens and cover the parent", () => {
    const byParent = new Map<number, string[]>();
    for (const child of children)
      byParent.set(child.parentPosition ?? -1, [
        ...(byParent.get(child.parentPosition ?? -1) ?? []),
        child.text,
      ]);
    for (const [position, texts] of byParent) {
      const parent = drafts[position]?.text ?? "";
      expect(parent.startsWith(texts[0] ?? "")).toBe(true);
      expect(parent.endsWith(texts.at(-1) ?? "")).toBe(true);
    }
  });

  it("AUTO behaves as HIERARCHICAL; CUSTOM is refused", () => {
    expect(chunkDocument(doc, settings({ chunkingStrategy: "AUTO" }))).toEqual(drafts);
    expect(() => chunkDocument(doc, settings({ chunkingStrategy: "CUSTOM" }))).toThrow(/CUSTOM/);
  });
});

describe("fixed chunking", () => {
  it("windows of chunkSize tokens stepping by chunkSize − chunkOverlap", () => {
    const drafts = chunkFixed(doc, settings({ chunkingStrategy: "FIXED", chunkSize: 60, chunkOverlap: 20 }));
    expect(drafts.every((d) => d.kind === "fixed" && d.parentPosition === null)).toBe(true);
    for (const draft of drafts) expect(estimateTokens(draft.text)).toBeLessThanOrEqual(62);
    for (let i = 1; i < drafts.length; i++) {
      const previous = (drafts[i - 1]?.text ?? "").split(/\s+/);
      const current = (drafts[i]?.text ?? "").split(/\s+/);
      // The next window starts inside the previous one (overlap) but never at its start.
      const start = previous.lastIndexOf(current[0] ?? "");
      expect(start).toBeGreaterThan(0);
    }
    const words = doc.blocks.flatMap((b) => b.text.split(/\s+/)).filter((w) => w !== "");
    const last = drafts.at(-1)?.text ?? "";
    expect(last.endsWith(words.at(-1) ?? "")).toBe(true);
  });

  it("without overlap the windows partition the text", () => {
    const drafts = chunkFixed(doc, settings({ chunkingStrategy: "FIXED", chunkSize: 60, chunkOverlap: 0 }));
    const words = doc.blocks.flatMap((b) => b.text.split(/\s+/)).filter((w) => w !== "");
    expect(drafts.flatMap((d) => d.text.split(/\s+/))).toEqual(words);
  });
});

describe("properties", () => {
  it("never loses text and always terminates (any sizes, any text)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 0, maxLength: 400 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 50, max: 400 }),
        fc.integer({ min: 0, max: 49 }),
        (texts, chunkSize, chunkOverlap) => {
          const source: SourceDocument = {
            metadata: {},
            blocks: texts.map((text) => ({ kind: "text" as const, text })),
          };
          const fixed = chunkFixed(
            source,
            settings({ chunkingStrategy: "FIXED", chunkSize, chunkOverlap: 0 }),
          );
          const words = texts.flatMap((t) => t.split(/\s+/)).filter((w) => w.trim() !== "");
          expect(
            fixed
              .flatMap((d) => d.text.split(/\s+/))
              .filter((w) => w !== "")
              .join(" "),
          ).toBe(
            words
              .join(" ")
              .split(/\s+/)
              .filter((w) => w !== "")
              .join(" "),
          );
          const hierarchical = chunkHierarchical(
            source,
            settings({ chunkSize, chunkOverlap, parentChunkSize: chunkSize * 2 }),
          );
          for (const child of hierarchical.filter((d) => d.kind === "child")) {
            expect(hierarchical[child.parentPosition ?? -1]?.text.includes(child.text)).toBe(true);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("chunk offsets into the revision's text (citations)", () => {
  /** Places every chunk at its offsets in one code-point array: they must agree wherever they overlap. */
  function placeAll(drafts: ReturnType<typeof chunkDocument>): string[] {
    const text: string[] = [];
    for (const draft of drafts) {
      const chars = [...draft.text];
      expect(draft.textEnd - draft.textStart).toBe(chars.length);
      chars.forEach((char, index) => {
        const at = draft.textStart + index;
        if (text[at] !== undefined) expect(text[at]).toBe(char);
        text[at] = char;
      });
    }
    return text;
  }

  const word = fc.constantFrom("alpha", "Beta.", "😀", "東京都。", "naïve", "x", "end!");
  const block = fc.array(word, { minLength: 1, maxLength: 60 }).map((words) => words.join(" "));
  const document = fc
    .array(
      fc.oneof(
        block.map((text) => ({ kind: "text" as const, text, page: 1 })),
        word.map((text) => ({ kind: "heading" as const, level: 1, text })),
      ),
      { minLength: 1, maxLength: 8 },
    )
    .map((blocks): SourceDocument => ({ metadata: {}, blocks }));

  it("every chunk of either strategy lies at its offsets, in code points, consistently with the others", () => {
    fc.assert(
      fc.property(document, (source) => {
        placeAll(
          chunkHierarchical(source, settings({ chunkSize: 12, chunkOverlap: 4, parentChunkSize: 40 })),
        );
        placeAll(chunkFixed(source, settings({ chunkingStrategy: "FIXED", chunkSize: 12, chunkOverlap: 4 })));
      }),
      { numRuns: 150 },
    );
  });

  it("parents are laid end to end, separated by their separator only", () => {
    const parents = chunkHierarchical(doc, settings()).filter((d) => d.kind === "parent");
    expect(parents[0]?.textStart).toBe(0);
    for (let i = 1; i < parents.length; i++) {
      const gap = parents[i]!.textStart - parents[i - 1]!.textEnd;
      expect([1, 2]).toContain(gap);
    }
  });
});
