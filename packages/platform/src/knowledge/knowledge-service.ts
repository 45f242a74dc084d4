/**
 * Wires the kb engine to a store and the gateway: ingestion and reindex jobs on
 * the durable queue (kinds `kb-ingest`, `kb-reindex`), search, and the embedding
 * bridges (the organization's principal for background work, the caller's for
 * search). Knowledge bases and their documents are knowledge-bases.ts and
 * knowledge-documents.ts, so one object answers everything about knowledge bases.
 */
import { capturesContent, contentAttribute, textMessage, tracedSpan } from "@groundwork/agents";
import type { Job, JobContext, JobWorker, Principal } from "@groundwork/core";
import type { Gateway } from "@groundwork/gateway";
import {
  type DocumentParser,
  Ingestion,
  type IngestionOutcome,
  type KnowledgeBaseRecord,
  type RevisionRecord,
  runReindex,
  type SearchResult,
  type ServedKnowledgeBase,
  searchKnowledgeBases,
  type TextSearchLanguage,
} from "@groundwork/kb";
import { GEN_AI, GLOBAL_TRACE_HOOKS, type TraceHooks } from "@groundwork/observability";
import { BackgroundWorker } from "../jobs/background-worker.js";
import type { PlatformStore } from "../store-port.js";
import { ConverterDocumentParser } from "./document-parser.js";
import { backgroundPrincipal, GatewayEmbeddingModel, modelStringFor } from "./embedding-bridge.js";
import type { KnowledgeBasesOptions } from "./knowledge-bases.js";
import { KnowledgeDocuments } from "./knowledge-documents.js";

/** One knowledge base warmed by `warmServed`: how long it took, and why it failed if it did. */
export interface WarmedKnowledgeBase extends ServedKnowledgeBase {
  ms: number;
  error: string | null;
}

export const KB_INGEST_JOB_KIND = "kb-ingest";
export const KB_REINDEX_JOB_KIND = "kb-reindex";
const MAX_ATTEMPTS = 3;

export interface KnowledgeServiceOptions extends KnowledgeBasesOptions {
  parser?: DocumentParser;
  leaseMs?: number;
  pollMs?: number;
  /** Traces each search as `search {knowledge base slug}` (PLATFORM.md §13); by default the global provider's. */
  traceHooks?: TraceHooks;
}

/** The searched knowledge bases' ids on a `search` span (not a GenAI attribute). */
export const KNOWLEDGE_BASE_IDS_ATTRIBUTE = "groundwork.knowledge_base_ids";

/** A search request: the query, at most `topK` hits (8 by default, 1–100), documents whose metadata match. */
export interface KnowledgeSearchRequest {
  query: string;
  topK?: number;
  metadataFilter?: Record<string, unknown>;
  signal?: AbortSignal;
}

export class KnowledgeService extends KnowledgeDocuments {
  readonly ingestion: Ingestion;
  private readonly worker: BackgroundWorker;
  private readonly parser: DocumentParser;
  private readonly traceHooks: TraceHooks;

  constructor(
    store: PlatformStore,
    readonly gateway: Gateway,
    options: KnowledgeServiceOptions = {},
  ) {
    super(store, options);
    this.traceHooks = options.traceHooks ?? GLOBAL_TRACE_HOOKS;
    this.worker = new BackgroundWorker(
      store.jobs,
      { [KB_INGEST_JOB_KIND]: this.handleIngest, [KB_REINDEX_JOB_KIND]: this.handleReindex },
      { leaseMs: options.leaseMs, pollMs: options.pollMs },
    );
    this.parser = options.parser ?? new ConverterDocumentParser();
    this.ingestion = new Ingestion({
      store: store.knowledgeBases,
      vectors: store.kbVectors,
      keywords: store.kbKeywords,
      parser: this.parser,
      embedderFor: async (kb, revision) =>
        new GatewayEmbeddingModel(
          gateway,
          await backgroundPrincipal(store, kb.organizationId, revision?.apiKeyId ?? null),
          await modelStringFor(store, kb),
        ),
    });
  }

  /** Queues the ingestion of an accepted (or reset) revision. */
  async enqueueIngest(revision: RevisionRecord): Promise<void> {
    const job = await this.store.jobs.enqueue(
      KB_INGEST_JOB_KIND,
      { revisionId: revision.id },
      { organizationId: revision.organizationId, maxAttempts: MAX_ATTEMPTS },
    );
    await this.store.knowledgeBases.setRevisionJob(revision.id, job.id);
    this.worker.poke();
  }

  async enqueueReindex(knowledgeBase: KnowledgeBaseRecord, language: TextSearchLanguage): Promise<void> {
    await this.store.jobs.enqueue(
      KB_REINDEX_JOB_KIND,
      { knowledgeBaseId: knowledgeBase.id, language },
      { organizationId: knowledgeBase.organizationId, maxAttempts: MAX_ATTEMPTS },
    );
    this.worker.poke();
  }

  readonly handleIngest = async (job: Job, context: JobContext): Promise<IngestionOutcome> => {
    const { revisionId } = job.payload as { revisionId: string };
    return this.ingestion.run(revisionId, {
      signal: context.signal,
      finalAttempt: job.attempts >= job.maxAttempts,
    });
  };

  readonly handleReindex = async (job: Job, context: JobContext): Promise<unknown> => {
    const { knowledgeBaseId, language } = job.payload as {
      knowledgeBaseId: string;
      language: TextSearchLanguage;
    };
    return runReindex(this.store.kbKeywords, knowledgeBaseId, language, { signal: context.signal });
  };

  /**
   * A revision whose job the queue gave up on (its worker died on every attempt)
   * is put in ERROR here, so none stays in progress forever.
   */
  async reconcile(revision: RevisionRecord): Promise<RevisionRecord> {
    if (revision.status === "READY" || revision.status === "ERROR") return revision;
    const jobId = await this.store.knowledgeBases.revisionJobId(revision.id);
    if (jobId === null) return revision;
    const job = await this.store.jobs.get(jobId);
    if (job === null) return revision;
    const exhausted =
      job.status === "running" &&
      job.leaseExpiresAt !== null &&
      job.leaseExpiresAt <= Date.now() &&
      job.attempts >= job.maxAttempts;
    if (job.status !== "failed" && !exhausted) return revision;
    await this.store.knowledgeBases.setRevisionStatus(
      revision.id,
      "ERROR",
      `Ingestion failed: ${job.lastError ?? "its worker stopped"}`,
    );
    return (await this.store.knowledgeBases.getRevision(revision.id)) ?? revision;
  }

  /**
   * Hybrid search over knowledge bases of the principal's organization (ids or records);
   * several are fused into one ranking. The query is embedded as the principal.
   */
  async search(
    principal: Principal,
    knowledgeBases: ReadonlyArray<string | KnowledgeBaseRecord>,
    request: KnowledgeSearchRequest,
  ): Promise<SearchResult> {
    const org = principal.organizationId;
    const records = await Promise.all(
      knowledgeBases.map(async (kb) => (typeof kb === "string" ? await this.knowledgeBase(org, kb) : kb)),
    );
    const hooks = this.traceHooks;
    // Several knowledge bases searched as one ranking are one span named after all of them.
    const name = `search ${records.map((kb) => kb.slug).join(",")}`;
    return tracedSpan(hooks, name, { organizationId: org, kind: "kb_search" }, async (span) => {
      if (span.isRecording()) {
        span.setAttribute(
          KNOWLEDGE_BASE_IDS_ATTRIBUTE,
          records.map((kb) => kb.id),
        );
        if (capturesContent(hooks, span, org)) {
          span.setAttribute(GEN_AI.inputMessages, contentAttribute([textMessage("user", request.query)]));
        }
      }
      // The query's embeddings call is the gateway's `embeddings {model}` child.
      return searchKnowledgeBases(
        {
          store: this.store.knowledgeBases,
          vectors: this.store.kbVectors,
          keywords: this.store.kbKeywords,
          embedderFor: async (kb) =>
            new GatewayEmbeddingModel(this.gateway, principal, await modelStringFor(this.store, kb)),
        },
        records,
        request,
      );
    });
  }

  /**
   * Loads the search indexes of knowledge bases of the principal's organization ahead of their
   * first query (an app's boot, a server's start): a knowledge base searched from memory otherwise
   * loads on its first search, seconds at a million chunks. Both legs at once: the vector index's
   * load is started first (the SQLite store reads its packs on a worker thread) and overlaps the
   * keyword leg's (HP63).
   */
  async warm(principal: Principal, knowledgeBases: readonly string[]): Promise<void> {
    for (const id of knowledgeBases) {
      await this.warmIndexes(await this.knowledgeBase(principal.organizationId, id));
    }
  }

  /**
   * Warms the knowledge bases of every organization that serve at least `minChunks` vectors, the
   * largest first, and reports each (a server's start, HP68): below that a first search loads in
   * well under a second. One that fails is reported and the next one warmed.
   */
  async warmServed(minChunks: number): Promise<WarmedKnowledgeBase[]> {
    const warmed: WarmedKnowledgeBase[] = [];
    for (const served of await this.store.knowledgeBases.servedAtLeast(minChunks)) {
      const started = performance.now();
      let error: string | null = null;
      try {
        const kb = await this.store.knowledgeBases.getKnowledgeBase(served.id);
        if (kb !== null && kb.deletedAt === null) await this.warmIndexes(kb);
      } catch (cause) {
        error = cause instanceof Error ? cause.message : String(cause);
      }
      warmed.push({ ...served, ms: Math.round(performance.now() - started), error });
    }
    return warmed;
  }

  /** Both legs at once: the vector load (a worker thread on SQLite) overlaps the keyword leg's. */
  private async warmIndexes(kb: KnowledgeBaseRecord): Promise<void> {
    const vectors = this.store.kbVectors.warm?.(kb.id);
    try {
      await this.store.kbKeywords.warm?.(kb.id, kb.textSearchLanguage);
    } finally {
      await vectors;
    }
  }

  /** Runs queued jobs until none is ready: after `addDocuments`, the documents are READY or ERROR (tests, scripts, the CLI's one-shot use). */
  async drain(): Promise<number> {
    return this.worker.drain();
  }

  startWorker(): JobWorker {
    return this.worker.start();
  }

  async stopWorker(): Promise<void> {
    await this.worker.stop();
    if (this.parser instanceof ConverterDocumentParser) await this.parser.close();
  }
}
