/**
 * The documents of a knowledge base: uploads and attached files become the next
 * revision of the document of that name and are queued for ingestion; reads
 * reconcile revisions whose job the queue gave up on; a revision in ERROR can be
 * retried; citations resolve chunk ids to passages.
 */
import { conflict, gone, invalidRequest, notFound, type PageRequest, type Principal } from "@groundwork/core";
import {
  type DocumentRecord,
  type KnowledgeBaseRecord,
  type ResolvedCitation,
  type RevisionRecord,
  type RevisionStatus,
  resolveCitation,
} from "@groundwork/kb";
import type { AcceptedUpload } from "@groundwork/store-sqlite";
import { detectUpload, isDocumentError } from "./document-parser.js";
import { KnowledgeBases } from "./knowledge-bases.js";

/** One file to add to a knowledge base. */
export interface DocumentUpload {
  /** The document's name: a second upload of the same name is its next version. */
  filename: string;
  content: Uint8Array;
  /** A hint for format detection; the content decides. */
  mimeType?: string | undefined;
  /** Merged into the document's metadata (search filters on it). */
  metadata?: Record<string, unknown> | undefined;
}

/** What became of one file: accepted (ingestion is queued) or refused with a reason. */
export type UploadOutcome =
  | { filename: string; accepted: AcceptedUpload }
  | { filename: string; error: { code: string; message: string } };

/** A document with its newest accepted revision and the READY one retrieval serves. */
export interface KnowledgeDocument {
  document: DocumentRecord;
  current: RevisionRecord | null;
  serving: RevisionRecord | null;
}

export abstract class KnowledgeDocuments extends KnowledgeBases {
  /** Queues the ingestion of an accepted (or reset) revision. */
  abstract enqueueIngest(revision: RevisionRecord): Promise<void>;

  /** The revision as it stands, put in ERROR if its job was given up on. */
  abstract reconcile(revision: RevisionRecord): Promise<RevisionRecord>;

  /**
   * Accepts each file (an unsupported, corrupt or empty one is refused in its outcome,
   * the others still go in) and queues its ingestion; the worker (`start()`) or
   * `drain()` runs it. The knowledge base is checked before the first file is read.
   */
  async addDocuments(
    principal: Principal,
    knowledgeBaseId: string,
    files: Iterable<DocumentUpload> | AsyncIterable<DocumentUpload>,
  ): Promise<UploadOutcome[]> {
    const kb = await this.knowledgeBase(principal.organizationId, knowledgeBaseId);
    const outcomes: UploadOutcome[] = [];
    for await (const file of files) outcomes.push(await this.accept(principal, kb, file));
    return outcomes;
  }

  /** Adds a stored file of purpose `knowledge` (its id lands in the document's metadata as `fileId`). */
  async attachFile(principal: Principal, knowledgeBaseId: string, fileId: string): Promise<AcceptedUpload> {
    const kb = await this.knowledgeBase(principal.organizationId, knowledgeBaseId);
    const organizationId = principal.organizationId;
    const file = await this.store.files.get(organizationId, fileId);
    if (file === null) throw notFound(`No file ${fileId}`, { param: "fileId" });
    if (file.deletedAt !== null) throw gone(`The file ${fileId} was deleted`, { param: "fileId" });
    if (file.purpose !== "knowledge") {
      throw invalidRequest(
        `The file's purpose is "${file.purpose}"; only files with purpose "knowledge" can be attached`,
        { param: "fileId" },
      );
    }
    const content = await this.store.files.content(organizationId, file.id);
    if (content === null) throw gone(`The file ${fileId} was deleted`, { param: "fileId" });
    const outcome = await this.accept(principal, kb, {
      filename: file.filename,
      content,
      mimeType: file.mime,
      metadata: { fileId: file.id },
    });
    if ("error" in outcome) {
      throw invalidRequest(`${file.filename}: ${outcome.error.message}`, {
        param: "fileId",
        code: outcome.error.code,
      });
    }
    return outcome.accepted;
  }

  /** Live documents, newest first; `status` filters on the newest revision's status. */
  async listDocuments(
    organizationId: string,
    knowledgeBaseId: string,
    page: PageRequest,
    status?: RevisionStatus,
  ): Promise<{ items: KnowledgeDocument[]; total: number }> {
    const kb = await this.knowledgeBase(organizationId, knowledgeBaseId);
    const { items, total } = await this.store.knowledgeBases.listDocuments(kb.id, page, status);
    return { items: await this.withRevisions(items), total };
  }

  async document(
    organizationId: string,
    knowledgeBaseId: string,
    documentId: string,
  ): Promise<KnowledgeDocument> {
    const kb = await this.knowledgeBase(organizationId, knowledgeBaseId);
    return (await this.withRevisions([await this.documentIn(kb, documentId)]))[0] as KnowledgeDocument;
  }

  async deleteDocument(principal: Principal, knowledgeBaseId: string, documentId: string): Promise<void> {
    const kb = await this.knowledgeBase(principal.organizationId, knowledgeBaseId);
    const document = await this.documentIn(kb, documentId);
    await this.store.knowledgeBases.deleteDocument(kb.id, document.id);
  }

  /** One revision (version) of a document, reconciled with its job. */
  async documentVersion(
    organizationId: string,
    knowledgeBaseId: string,
    documentId: string,
    versionId: string,
  ): Promise<RevisionRecord> {
    const kb = await this.knowledgeBase(organizationId, knowledgeBaseId);
    const document = await this.documentIn(kb, documentId);
    const revision = await this.store.knowledgeBases.revisionOf(document.id, versionId);
    if (revision === null)
      throw notFound(`No version ${versionId} of document ${document.id}`, { param: "versionId" });
    return this.reconcile(revision);
  }

  /** Queues the newest revision again when it is in ERROR and its upload is still stored. */
  async retryDocument(
    principal: Principal,
    knowledgeBaseId: string,
    documentId: string,
  ): Promise<RevisionRecord> {
    const kb = await this.knowledgeBase(principal.organizationId, knowledgeBaseId);
    const document = await this.documentIn(kb, documentId);
    const store = this.store.knowledgeBases;
    const latest = await this.reconcile(
      (await store.getRevision(document.latestRevisionId)) as RevisionRecord,
    );
    if (latest.status !== "ERROR") {
      throw conflict(
        `Only a revision in ERROR can be retried; version ${latest.versionNo} is ${latest.status}`,
        { param: "documentId" },
      );
    }
    if (!(await store.hasSource(latest.id))) {
      throw conflict("The upload of this revision is no longer stored; upload the file again", {
        param: "documentId",
      });
    }
    await store.resetForRetry(latest.id);
    const reset = (await store.getRevision(latest.id)) as RevisionRecord;
    await this.enqueueIngest(reset);
    return reset;
  }

  /** The passage a chunk id stands for (the parent passage under hierarchical chunking). */
  async citation(
    organizationId: string,
    knowledgeBaseId: string,
    chunkId: string,
  ): Promise<ResolvedCitation> {
    const kb = await this.knowledgeBase(organizationId, knowledgeBaseId);
    return resolveCitation(this.store.knowledgeBases, kb.id, chunkId);
  }

  private async accept(
    principal: Principal,
    kb: KnowledgeBaseRecord,
    file: DocumentUpload,
  ): Promise<UploadOutcome> {
    if (file.content.byteLength === 0) {
      return { filename: file.filename, error: { code: "empty_file", message: "The file is empty" } };
    }
    let mime: string;
    try {
      mime = detectUpload(file.content, file.filename, file.mimeType).mime;
    } catch (error) {
      if (!isDocumentError(error)) throw error;
      return { filename: file.filename, error: { code: error.code, message: error.message } };
    }
    await this.basesOptions.allowance?.checkStorage?.(principal.organizationId, file.content.byteLength);
    const accepted = await this.store.knowledgeBases.acceptUpload({
      knowledgeBase: kb,
      filename: file.filename,
      mime,
      bytes: file.content,
      metadata: file.metadata ?? {},
      apiKeyId: principal.apiKeyId === "" ? null : principal.apiKeyId,
    });
    await this.enqueueIngest(accepted.revision);
    return { filename: file.filename, accepted };
  }

  private async documentIn(kb: KnowledgeBaseRecord, documentId: string): Promise<DocumentRecord> {
    const document = await this.store.knowledgeBases.documentIn(kb.id, documentId);
    if (document === null)
      throw notFound(`No document ${documentId} in knowledge base ${kb.id}`, { param: "documentId" });
    return document;
  }

  private async withRevisions(documents: readonly DocumentRecord[]): Promise<KnowledgeDocument[]> {
    const revisions = new Map(
      (await this.store.knowledgeBases.revisionsOf(documents.map((d) => d.id))).map((revision) => [
        revision.id,
        revision,
      ]),
    );
    return documents.map((document) => ({
      document,
      current: revisions.get(document.latestRevisionId) ?? null,
      serving:
        document.servingRevisionId === null ? null : (revisions.get(document.servingRevisionId) ?? null),
    }));
  }
}
