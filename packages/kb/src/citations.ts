/**
 * Citation resolution (spec document 3, "Citation rules"): a chunk id resolves
 * to the passage the model saw — the parent passage under hierarchical
 * chunking — even after a re-ingest (`isCurrentVersion: false`); after the
 * document's deletion the ids, pages and headings remain but the text is
 * withdrawn. A chunk of another knowledge base (or organization) is unknown.
 */
import { notFound } from "@groundwork/core";
import type { KnowledgeStore } from "./ports.js";

export interface ResolvedCitation {
  chunkId: string;
  documentVersionId: string;
  documentId: string;
  knowledgeBaseId: string;
  text: string | null;
  textStatus: "AVAILABLE" | "WITHDRAWN";
  pageStart: number | null;
  pageEnd: number | null;
  headings: string[];
  isCurrentVersion: boolean;
  /**
   * The cited passage inside its revision's text: code points, end exclusive, and the page it starts on
   * (null when the format has no pages). Null for chunks ingested before offsets were recorded.
   */
  span: { start: number; end: number; page: number | null } | null;
}

export async function resolveCitation(
  store: KnowledgeStore,
  knowledgeBaseId: string,
  chunkId: string,
): Promise<ResolvedCitation> {
  const [chunk] = await store.chunksById(knowledgeBaseId, [chunkId]);
  if (chunk === undefined)
    throw notFound(`No chunk ${chunkId} in knowledge base ${knowledgeBaseId}`, { param: "chunkId" });
  const parent =
    chunk.parentId === null ? undefined : (await store.chunksById(knowledgeBaseId, [chunk.parentId]))[0];
  const passage = parent ?? chunk;
  const [document] = await store.documentsById([chunk.documentId]);
  const withdrawn = document === undefined || document.deletedAt !== null || passage.text === null;
  return {
    chunkId: chunk.id,
    documentVersionId: chunk.revisionId,
    documentId: chunk.documentId,
    knowledgeBaseId: chunk.knowledgeBaseId,
    text: withdrawn ? null : passage.text,
    textStatus: withdrawn ? "WITHDRAWN" : "AVAILABLE",
    pageStart: passage.pageStart,
    pageEnd: passage.pageEnd,
    headings: passage.headingPath,
    isCurrentVersion: !withdrawn && document?.servingRevisionId === chunk.revisionId,
    span:
      typeof passage.textStart === "number" && typeof passage.textEnd === "number"
        ? { start: passage.textStart, end: passage.textEnd, page: passage.pageStart }
        : null,
  };
}
