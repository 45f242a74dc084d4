/**
 * Chunkers. HIERARCHICAL (and AUTO) cuts the document into sections at headings,
 * packs each section's sentences into parent passages of about `parentChunkSize`
 * tokens and each parent into child chunks of about `chunkSize` tokens with
 * `chunkOverlap` tokens of overlap: children are indexed, parents are what a
 * search returns. FIXED slides a window of `chunkSize` tokens (step `chunkSize −
 * chunkOverlap`) over the whole text; the window itself is the result. Token
 * counts are the core estimate (docs/decisions.md F13).
 *
 * Every chunk's text is an exact substring of its parent's text (same
 * separators), which is how `matchedSpan` is located in `content`.
 */
import { estimateTokens } from "@groundwork/core";
import type { ChunkingSettings } from "./config.js";
import type { SourceDocument } from "./source-document.js";

export interface ChunkDraft {
  /** Position among the revision's chunks (parents and children numbered together, document order). */
  position: number;
  kind: "parent" | "child" | "fixed";
  /** Index (into the drafts) of the parent passage, for children. */
  parentPosition: number | null;
  text: string;
  tokenCount: number;
  pageStart: number | null;
  pageEnd: number | null;
  headingPath: string[];
  /**
   * Where the chunk lies in the revision's text — every unit of the document joined as chunks join
   * them (the HIERARCHICAL parents, or the FIXED windows without their overlaps, laid end to end) — in
   * code points, end exclusive (docs/decisions.md PV10).
   */
  textStart: number;
  textEnd: number;
}

interface Unit {
  text: string;
  /** Separator placed before this unit when it follows another in the same passage. */
  sep: string;
  tokens: number;
  page: number | null;
  headingPath: string[];
}

const SENTENCE_END = /(?<=[.!?;:])\s+(?=\S)/u;

/** Words of a too-long sentence regrouped into pieces of at most `max` tokens. */
function splitLong(text: string, max: number): string[] {
  const words = text.split(/\s+/u).filter((w) => w !== "");
  const pieces: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const word of words) {
    const cost = estimateTokens(word);
    if (current.length > 0 && tokens + cost > max) {
      pieces.push(current.join(" "));
      current = [];
      tokens = 0;
    }
    // A single "word" longer than the window (a URL, a hash) is cut by characters.
    if (cost > max) {
      const size = Math.max(1, Math.floor((word.length * max) / cost));
      for (let i = 0; i < word.length; i += size) pieces.push(word.slice(i, i + size));
      continue;
    }
    current.push(word);
    tokens += cost;
  }
  if (current.length > 0) pieces.push(current.join(" "));
  return pieces;
}

interface Section {
  headingPath: string[];
  units: Unit[];
}

/** Sections at headings, each a list of sentence units no longer than `maxUnitTokens`. */
function sections(document: SourceDocument, maxUnitTokens: number): Section[] {
  const out: Section[] = [];
  const headings: Array<{ level: number; text: string }> = [];
  let page: number | null = null;
  let current: Section = { headingPath: [], units: [] };
  const pushUnits = (text: string, blockPage: number | null, firstSep: string) => {
    let sep = firstSep;
    for (const sentence of text.split(SENTENCE_END)) {
      const trimmed = sentence.trim();
      if (trimmed === "") continue;
      const tokens = estimateTokens(trimmed);
      const pieces = tokens > maxUnitTokens ? splitLong(trimmed, maxUnitTokens) : [trimmed];
      for (const piece of pieces) {
        current.units.push({
          text: piece,
          sep,
          tokens: estimateTokens(piece),
          page: blockPage,
          headingPath: current.headingPath,
        });
        sep = " ";
      }
    }
  };
  for (const block of document.blocks) {
    if (block.page !== undefined) page = block.page;
    const text = block.text.trim();
    if (text === "") continue;
    if (block.kind === "heading") {
      if (current.units.length > 0) out.push(current);
      while (headings.length > 0 && (headings.at(-1)?.level ?? 0) >= block.level) headings.pop();
      headings.push({ level: block.level, text });
      current = { headingPath: headings.map((h) => h.text), units: [] };
      // The heading line opens its section: it carries the section's words into search.
      pushUnits(text, page, "\n\n");
      continue;
    }
    for (const paragraph of text.split(/\n{2,}/u)) pushUnits(paragraph, page, "\n\n");
  }
  if (current.units.length > 0) out.push(current);
  return out;
}

/** Code-point offset of each unit's text in the revision's text (all units joined in order). */
function unitOffsets(units: readonly Unit[]): Map<Unit, number> {
  const offsets = new Map<Unit, number>();
  let offset = 0;
  units.forEach((unit, index) => {
    if (index > 0) offset += codePoints(unit.sep);
    offsets.set(unit, offset);
    offset += codePoints(unit.text);
  });
  return offsets;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function span(units: readonly Unit[], offsets: ReadonlyMap<Unit, number>) {
  const first = units[0]!;
  const last = units.at(-1)!;
  return { textStart: offsets.get(first)!, textEnd: offsets.get(last)! + codePoints(last.text) };
}

function join(units: readonly Unit[]): string {
  return units.map((unit, index) => (index === 0 ? unit.text : unit.sep + unit.text)).join("");
}

function pages(units: readonly Unit[]): { pageStart: number | null; pageEnd: number | null } {
  const known = units.map((u) => u.page).filter((p): p is number => p !== null);
  if (known.length === 0) return { pageStart: null, pageEnd: null };
  return { pageStart: Math.min(...known), pageEnd: Math.max(...known) };
}

/** Greedy windows over units: each at most `size` tokens, the next starting `overlap` tokens back. */
function windows(units: readonly Unit[], size: number, overlap: number): Unit[][] {
  const out: Unit[][] = [];
  let start = 0;
  while (start < units.length) {
    let end = start;
    let tokens = 0;
    while (end < units.length && (end === start || tokens + (units[end]?.tokens ?? 0) <= size)) {
      tokens += units[end]?.tokens ?? 0;
      end++;
    }
    out.push(units.slice(start, end));
    if (end >= units.length) break;
    // Step back over whole units worth at most `overlap` tokens, always moving forward.
    let next = end;
    let back = 0;
    while (next - 1 > start && back + (units[next - 1]?.tokens ?? 0) <= overlap) {
      next--;
      back += units[next]?.tokens ?? 0;
    }
    start = next;
  }
  return out;
}

export function chunkHierarchical(document: SourceDocument, settings: ChunkingSettings): ChunkDraft[] {
  const drafts: ChunkDraft[] = [];
  const all = sections(document, settings.chunkSize);
  const offsets = unitOffsets(all.flatMap((section) => section.units));
  for (const section of all) {
    for (const parentUnits of windows(section.units, settings.parentChunkSize, 0)) {
      const parentPosition = drafts.length;
      const parentText = join(parentUnits);
      drafts.push({
        position: parentPosition,
        kind: "parent",
        parentPosition: null,
        text: parentText,
        tokenCount: estimateTokens(parentText),
        ...pages(parentUnits),
        headingPath: section.headingPath,
        ...span(parentUnits, offsets),
      });
      for (const childUnits of windows(parentUnits, settings.chunkSize, settings.chunkOverlap)) {
        const text = join(childUnits);
        drafts.push({
          position: drafts.length,
          kind: "child",
          parentPosition,
          text,
          tokenCount: estimateTokens(text),
          ...pages(childUnits),
          headingPath: section.headingPath,
          ...span(childUnits, offsets),
        });
      }
    }
  }
  return drafts;
}

export function chunkFixed(document: SourceDocument, settings: ChunkingSettings): ChunkDraft[] {
  // Word units, so windows have the requested size however long the sentences are.
  const words: Unit[] = [];
  for (const section of sections(document, settings.chunkSize)) {
    for (const unit of section.units) {
      let sep = unit.sep;
      for (const word of unit.text.split(/\s+/u)) {
        if (word === "") continue;
        words.push({ ...unit, text: word, sep, tokens: estimateTokens(word) });
        sep = " ";
      }
    }
  }
  const offsets = unitOffsets(words);
  return windows(words, settings.chunkSize, settings.chunkOverlap).map((units, position) => {
    const text = join(units);
    return {
      position,
      kind: "fixed" as const,
      parentPosition: null,
      text,
      tokenCount: estimateTokens(text),
      ...pages(units),
      headingPath: units[0]?.headingPath ?? [],
      ...span(units, offsets),
    };
  });
}

/** Chunks a document with the knowledge base's strategy; CUSTOM is unsupported (ingestion fails). */
export function chunkDocument(document: SourceDocument, settings: ChunkingSettings): ChunkDraft[] {
  switch (settings.chunkingStrategy) {
    case "HIERARCHICAL":
    case "AUTO":
      return chunkHierarchical(document, settings);
    case "FIXED":
      return chunkFixed(document, settings);
    case "CUSTOM":
      throw new Error(
        "The CUSTOM chunking strategy is not supported; change the knowledge base to HIERARCHICAL, FIXED or AUTO and retry",
      );
  }
}
