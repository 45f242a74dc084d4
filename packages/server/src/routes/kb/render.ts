/** The API shapes of knowledge bases, documents and revisions (timestamps ISO 8601, docs/decisions.md F12). */
import type { KnowledgeBaseRecord, RevisionRecord } from "@groundwork/kb";
import type { KnowledgeDocument, UploadOutcome } from "@groundwork/platform";
import type { AcceptedUpload } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(ms).toISOString();

export function renderKnowledgeBase(kb: KnowledgeBaseRecord) {
  return {
    id: kb.id,
    name: kb.name,
    slug: kb.slug,
    description: kb.description,
    embeddingProviderId: kb.embeddingProviderId,
    embeddingModel: kb.embeddingModel,
    embeddingDim: kb.embeddingDim,
    chunkingStrategy: kb.chunkingStrategy,
    chunkSize: kb.chunkSize,
    chunkOverlap: kb.chunkOverlap,
    parentChunkSize: kb.parentChunkSize,
    hybridSearchEnabled: kb.hybridSearchEnabled,
    rerankerProviderId: kb.rerankerProviderId,
    textSearchLanguage: kb.textSearchLanguage,
    pendingTextSearchLanguage: kb.pendingTextSearchLanguage,
    configVersion: kb.configVersion,
    createdAt: iso(kb.createdAt),
    updatedAt: iso(kb.updatedAt),
  };
}

export function renderRevision(revision: RevisionRecord) {
  return {
    id: revision.id,
    documentId: revision.documentId,
    versionNo: revision.versionNo,
    status: revision.status,
    mime: revision.mime,
    byteSize: revision.byteSize,
    error: revision.error,
    createdAt: iso(revision.createdAt),
    updatedAt: iso(revision.updatedAt),
  };
}

/**
 * A document with its revisions of interest: `currentVersion` is the newest
 * accepted revision (its status is the ingestion state; the list's `status`
 * filter reads it), `servingVersion` the READY revision retrieval uses.
 */
export function renderDocument({ document, current, serving }: KnowledgeDocument) {
  return {
    id: document.id,
    name: document.name,
    knowledgeBaseId: document.knowledgeBaseId,
    metadata: document.metadata,
    currentVersion: current === null ? null : renderRevision(current),
    servingVersion: serving === null ? null : renderRevision(serving),
    createdAt: iso(document.createdAt),
    updatedAt: iso(document.updatedAt),
  };
}

export function renderAccepted({ document, revision }: AcceptedUpload) {
  return {
    document: { id: document.id, name: document.name, knowledgeBaseId: document.knowledgeBaseId },
    acceptedVersion: {
      id: revision.id,
      versionNo: revision.versionNo,
      status: revision.status,
      mime: revision.mime,
      byteSize: revision.byteSize,
    },
  };
}

/** One entry of an upload's answer: the accepted document and version, or why the file was refused. */
export function renderUploadOutcome(outcome: UploadOutcome) {
  return "error" in outcome
    ? { filename: outcome.filename, error: outcome.error }
    : { filename: outcome.filename, upload: renderAccepted(outcome.accepted) };
}
