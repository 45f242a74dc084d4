/**
 * The ingestion state machine of one revision: PENDING → PARSING (conversion) →
 * CHUNKING → EMBEDDING → READY, or ERROR with a reason. It runs inside a
 * durable job, so every step is safe to run again: a server that died mid-way
 * re-chunks from the stored upload and embeds only chunks that have no vector
 * yet. A refused embedding call ends the revision in ERROR and nothing resumes
 * by itself (`retry` starts it again); transient failures are left to the job
 * queue's retries, and the last attempt records ERROR.
 */
import type { EmbeddingModel } from "@groundwork/core";
import { chunkDocument } from "./chunkers.js";
import { errorMessage, isEmbeddingRefusal } from "./embedding-errors.js";
import type {
  ChunkRecord,
  DocumentParser,
  EmbedderFor,
  KeywordIndex,
  KnowledgeBaseRecord,
  KnowledgeStore,
  RevisionRecord,
  VectorIndex,
} from "./ports.js";
import { indexTerms } from "./text-analysis.js";

export interface IngestionDeps {
  store: KnowledgeStore;
  vectors: VectorIndex;
  keywords: KeywordIndex;
  parser: DocumentParser;
  embedderFor: EmbedderFor;
  /** Inputs per embedding call. */
  embeddingBatchSize?: number;
}

export interface IngestionRun {
  signal?: AbortSignal;
  /** True on the job's last allowed attempt: a transient failure then ends in ERROR too. */
  finalAttempt?: boolean;
}

export type IngestionOutcome =
  | { status: "READY"; chunks: number }
  | { status: "ERROR"; error: string }
  | { status: "SKIPPED"; reason: string };

const IN_PROGRESS = new Set(["PENDING", "PARSING", "CHUNKING", "EMBEDDING"]);

/** Raised for failures that must end the revision in ERROR at once. */
class IngestionFailure extends Error {}

export class Ingestion {
  private readonly batchSize: number;

  constructor(private readonly deps: IngestionDeps) {
    this.batchSize = deps.embeddingBatchSize ?? 64;
  }

  async run(revisionId: string, options: IngestionRun = {}): Promise<IngestionOutcome> {
    const { store } = this.deps;
    const revision = await store.getRevision(revisionId);
    if (revision === null) return { status: "SKIPPED", reason: "revision not found" };
    if (!IN_PROGRESS.has(revision.status))
      return { status: "SKIPPED", reason: `revision is ${revision.status}` };
    const kb = await store.getKnowledgeBase(revision.knowledgeBaseId);
    if (kb === null || kb.deletedAt !== null) return { status: "SKIPPED", reason: "knowledge base deleted" };
    try {
      return await this.steps(kb, revision, options);
    } catch (error) {
      if (options.signal?.aborted) throw error; // shutting down: the job runs again after the lease
      const refusal = error instanceof IngestionFailure || isEmbeddingRefusal(error);
      if (!refusal && options.finalAttempt !== true) throw error; // transient: the queue retries
      const reason = errorMessage(error);
      await store.setRevisionStatus(revisionId, "ERROR", reason);
      return { status: "ERROR", error: reason };
    }
  }

  private async steps(
    kb: KnowledgeBaseRecord,
    revision: RevisionRecord,
    options: IngestionRun,
  ): Promise<IngestionOutcome> {
    const { store, vectors, keywords } = this.deps;
    const signal = options.signal;
    const moved = (ok: boolean) => {
      if (!ok) throw new Skip();
    };
    try {
      if (kb.chunkingStrategy === "CUSTOM") {
        throw new IngestionFailure(
          "The CUSTOM chunking strategy is not supported; change the knowledge base to HIERARCHICAL, FIXED or AUTO and retry",
        );
      }
      moved(await store.setRevisionStatus(revision.id, "PARSING"));
      const source = await store.loadSource(revision.id);
      if (source === null)
        throw new IngestionFailure("The uploaded file is no longer stored; upload it again");
      let parsed: Awaited<ReturnType<DocumentParser["parse"]>>;
      try {
        parsed = await this.deps.parser.parse(source, signal === undefined ? {} : { signal });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw new IngestionFailure(`Parsing failed: ${errorMessage(error)}`);
      }
      signal?.throwIfAborted();
      await store.mergeDocumentMetadata(revision.documentId, parsed.metadata);

      moved(await store.setRevisionStatus(revision.id, "CHUNKING"));
      const drafts = chunkDocument(parsed, kb);
      if (!drafts.some((draft) => draft.kind !== "parent")) {
        throw new IngestionFailure("The document has no text to index");
      }
      // Re-chunking is deterministic, so a resumed run keeps the vectors of chunks it already embedded.
      const existing = await store.indexedChunks(revision.id);
      const indexed =
        existing.length > 0 &&
        sameChunks(
          existing,
          drafts.filter((d) => d.kind !== "parent").map((d) => d.text),
        )
          ? existing
          : (await store.replaceChunks(revision.id, drafts)).filter((chunk) => chunk.kind !== "parent");

      moved(await store.setRevisionStatus(revision.id, "EMBEDDING"));
      const done = await vectors.embeddedChunkIds(revision.id);
      const todo = indexed.filter((chunk) => !done.has(chunk.id));
      const model = await this.deps.embedderFor(kb, revision);
      for (let start = 0; start < todo.length; start += this.batchSize) {
        signal?.throwIfAborted();
        const batch = todo.slice(start, start + this.batchSize);
        const result = await embed(model, kb, batch, signal);
        await vectors.upsert(
          kb.id,
          batch.map((chunk, index) => ({ chunkId: chunk.id, vector: result[index] as Float32Array })),
        );
      }
      // Keyword rows for the active language and, during a reindex, for the pending one too.
      // Read again: a language change may have started while this revision was embedding.
      const current = (await store.getKnowledgeBase(kb.id)) ?? kb;
      const languages = new Set([
        current.textSearchLanguage,
        ...(current.pendingTextSearchLanguage === null ? [] : [current.pendingTextSearchLanguage]),
      ]);
      for (const language of languages) {
        await keywords.add(
          kb.id,
          language,
          indexed.map((chunk) => ({ chunkId: chunk.id, terms: indexTerms(chunk.text ?? "", language) })),
        );
      }
      signal?.throwIfAborted();
      moved(await store.activateRevision(revision.id));
      return { status: "READY", chunks: indexed.length };
    } catch (error) {
      if (error instanceof Skip) return { status: "SKIPPED", reason: "revision no longer in progress" };
      throw error;
    }
  }
}

class Skip extends Error {}

function sameChunks(existing: readonly ChunkRecord[], texts: readonly string[]): boolean {
  return existing.length === texts.length && existing.every((chunk, index) => chunk.text === texts[index]);
}

async function embed(
  model: EmbeddingModel,
  kb: KnowledgeBaseRecord,
  chunks: readonly ChunkRecord[],
  signal: AbortSignal | undefined,
): Promise<Float32Array[]> {
  const result = await model.embed(
    { model: kb.embeddingModel, input: chunks.map((chunk) => chunk.text ?? ""), dimensions: kb.embeddingDim },
    signal === undefined ? {} : { signal },
  );
  if (result.vectors.length !== chunks.length) {
    throw new IngestionFailure(
      `The embedding model answered ${result.vectors.length} vectors for ${chunks.length} inputs`,
    );
  }
  for (const vector of result.vectors) {
    if (vector.length !== kb.embeddingDim) {
      throw new IngestionFailure(
        `The embedding model answered vectors of width ${vector.length}; the knowledge base needs ${kb.embeddingDim}`,
      );
    }
  }
  return result.vectors;
}
