import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import { AgentStore } from "./agents.js";
import { AnalyticsStore } from "./analytics.js";
import { AnnotationQueueStore } from "./annotation-queues.js";
import { ApiKeyStore } from "./api-keys.js";
import { BashFileStore } from "./bash-files.js";
import { BillingStore } from "./billing.js";
import { ConnectorStore } from "./connectors.js";
import { ConversationStore } from "./conversations.js";
import { ConversionTaskStore } from "./conversion-tasks.js";
import { CredentialCipher } from "./credential-cipher.js";
import { type Database, openDatabase } from "./database.js";
import { DatasetStore } from "./datasets.js";
import { EvaluatorTemplateStore } from "./evaluator-templates.js";
import { flushAtExit } from "./exit-flush.js";
import { ExperimentStore } from "./experiments.js";
import { ExtractionStore } from "./extractions.js";
import { FileStore } from "./files.js";
import { SqliteKeywordIndex } from "./kb-keyword-index.js";
import { SqliteVectorIndex } from "./kb-vector-index.js";
import { KnowledgeBaseStore } from "./knowledge-bases.js";
import { MemoryFileStore } from "./memory-files.js";
import { OrganizationStore } from "./organizations.js";
import { PluginStore } from "./plugins.js";
import { PromptStore } from "./prompts.js";
import { ProviderStore } from "./providers.js";
import { SchemaStore } from "./schemas.js";
import { ScoreStore } from "./scores.js";
import { SkillStore } from "./skills.js";
import { SqliteJobQueue } from "./sqlite-job-queue.js";
import { StoredResponseStore } from "./stored-responses.js";
import { TraceStore } from "./traces.js";
import { UsageRecordStore } from "./usage-records.js";
import { startWalCheckpointer } from "./wal-checkpointer.js";

export interface Store {
  readonly db: Database;
  readonly organizations: OrganizationStore;
  readonly apiKeys: ApiKeyStore;
  readonly jobs: SqliteJobQueue;
  readonly providers: ProviderStore;
  readonly usage: UsageRecordStore;
  readonly conversionTasks: ConversionTaskStore;
  readonly schemas: SchemaStore;
  readonly extractions: ExtractionStore;
  readonly files: FileStore;
  readonly knowledgeBases: KnowledgeBaseStore;
  readonly kbVectors: SqliteVectorIndex;
  readonly kbKeywords: SqliteKeywordIndex;
  readonly agents: AgentStore;
  /** Conversations as a resource: listing with derived fields, items, deletion. */
  readonly conversations: ConversationStore;
  readonly memoryFiles: MemoryFileStore;
  readonly storedResponses: StoredResponseStore;
  /** Scores on responses, extractions, conversations and (later) dataset items, traces and run results. */
  readonly scores: ScoreStore;
  /** LLM-judge evaluator templates (PLATFORM.md §9). */
  readonly evaluatorTemplates: EvaluatorTemplateStore;
  /** Datasets, their items (as revisions) and frozen versions. */
  readonly datasets: DatasetStore;
  /** Prompts with their versions and labels (PLATFORM.md §7). */
  readonly prompts: PromptStore;
  /** Skills with their versions, files and labels. */
  readonly skills: SkillStore;
  /** Installed plugins with their manifests and component ids. */
  readonly plugins: PluginStore;
  /** Connectors (remote MCP servers), members' connections and allowances, input requests. */
  readonly connectors: ConnectorStore;
  /** The platform_bash file systems of conversations. */
  readonly bashFiles: BashFileStore;
  /** Analytics reads over usage records (with their hourly rollups), extractions and scores. */
  readonly analytics: AnalyticsStore;
  /** Billing counters beside the usage records: pages per month, stored bytes, active keys (PLATFORM.md §15). */
  readonly billing: BillingStore;
  /** Annotation queues with their score configurations, items and item locks (PLATFORM.md §12). */
  readonly annotationQueues: AnnotationQueueStore;
  /** Experiments with their variants, durable runs and per-item results (PLATFORM.md §11). */
  readonly experiments: ExperimentStore;
  /** Traces, their spans and the organizations' tracing settings (PLATFORM.md §13). */
  readonly traces: TraceStore;
  /** Answers when the database answers (the server's health check). */
  ping(): void;
  close(): void;
}

export interface OpenStoreOptions {
  /** Database file, or `:memory:`. */
  file: string;
  clock?: Clock;
  ids?: IdGenerator;
  /** Master secret for provider credentials; without it providers cannot store or use keys. */
  secret?: string;
  /**
   * WAL checkpoints on a thread of their own instead of inside the commit that fills the log
   * (HP67): a server's requests never wait for one. File databases only; off by default.
   */
  backgroundCheckpoints?: boolean;
}

/** Opens (and migrates) the database and wires the stores that share it. */
export function openStore(options: OpenStoreOptions): Store {
  const db = openDatabase(options.file);
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? defaultIdGenerator;
  const usage = new UsageRecordStore(db, clock, ids);
  // Queued usage rows are written even when the process exits without closing the store (HP14).
  const stopFlushAtExit = flushAtExit(usage);
  const checkpointer =
    options.backgroundCheckpoints === true && options.file !== ":memory:"
      ? startWalCheckpointer(db, options.file)
      : null;
  const apiKeys = new ApiKeyStore(db, clock, ids);
  const cipher = new CredentialCipher(options.secret ?? null);
  return {
    db,
    organizations: new OrganizationStore(db, clock, ids, () => apiKeys.forgetVerified()),
    apiKeys,
    jobs: new SqliteJobQueue(db, clock, ids),
    providers: new ProviderStore(db, cipher, clock, ids),
    usage,
    conversionTasks: new ConversionTaskStore(db, clock, ids),
    schemas: new SchemaStore(db, clock, ids),
    extractions: new ExtractionStore(db, clock, ids),
    files: new FileStore(db, clock, ids),
    knowledgeBases: new KnowledgeBaseStore(db, clock, ids),
    kbVectors: new SqliteVectorIndex(db),
    kbKeywords: new SqliteKeywordIndex(db),
    agents: new AgentStore(db, clock, ids),
    conversations: new ConversationStore(db, clock, ids),
    memoryFiles: new MemoryFileStore(db, clock, ids),
    storedResponses: new StoredResponseStore(db, clock),
    scores: new ScoreStore(db, clock, ids),
    evaluatorTemplates: new EvaluatorTemplateStore(db, clock, ids),
    datasets: new DatasetStore(db, clock, ids),
    prompts: new PromptStore(db, clock, ids),
    skills: new SkillStore(db, clock, ids),
    plugins: new PluginStore(db, clock, ids),
    connectors: new ConnectorStore(db, cipher, clock, ids),
    bashFiles: new BashFileStore(db, clock),
    analytics: new AnalyticsStore(db, usage, clock, ids),
    billing: new BillingStore(db, clock, ids),
    annotationQueues: new AnnotationQueueStore(db, clock, ids),
    experiments: new ExperimentStore(db, clock, ids),
    traces: new TraceStore(db, cipher, clock, ids),
    ping() {
      db.prepare("SELECT 1").get();
    },
    close() {
      if (!db.open) return;
      stopFlushAtExit();
      usage.flush();
      checkpointer?.stop();
      db.close();
    },
  };
}
