/**
 * What ingestion chunks: a flat list of headings and text blocks with the page
 * each starts on. The server builds it from the conversion engine's document
 * model (headings, paragraphs, lists, tables, page boundaries); keeping the
 * engine's own small shape lets kb stay independent of the converter package.
 */
export type SourceBlock =
  | { kind: "heading"; level: number; text: string; page?: number }
  | { kind: "text"; text: string; page?: number };

export interface SourceDocument {
  blocks: SourceBlock[];
  /** Document metadata (title, author, format …) merged into the document's searchable metadata. */
  metadata: Record<string, string | number | boolean | null | string[]>;
}
