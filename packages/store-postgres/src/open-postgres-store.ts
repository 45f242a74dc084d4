/**
 * The PostgreSQL store as one object with the same families as store-sqlite's `Store`: it runs
 * the migrations, then composes every family over one client. The knowledge-base families lack
 * some SQLite members yet: each of those throws a 501 `not_implemented` GroundworkError naming
 * it (the object still types as the platform's `PlatformStore`), so a call fails loudly instead
 * of reaching a missing table.
 */
import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import { CredentialCipher } from "@groundwork/store-rows";
import { runPostgresMigrations } from "./migrations.js";
import { PostgresAgentStore } from "./postgres-agents.js";
import { PostgresAnalyticsStore } from "./postgres-analytics.js";
import { PostgresAnnotationQueueStore } from "./postgres-annotation-queues.js";
import { PostgresApiKeyStore } from "./postgres-api-keys.js";
import { PostgresBashFileStore } from "./postgres-bash-files.js";
import { PostgresBillingStore } from "./postgres-billing.js";
import { PostgresConnectorStore } from "./postgres-connectors.js";
import { PostgresConversationStore } from "./postgres-conversations.js";
import { PostgresConversionTaskStore } from "./postgres-conversion-tasks.js";
import { PostgresDatasetStore } from "./postgres-datasets.js";
import { PostgresEvaluatorTemplateStore } from "./postgres-evaluator-templates.js";
import { PostgresExperimentStore } from "./postgres-experiments.js";
import { PostgresExtractionStore } from "./postgres-extractions.js";
import { PostgresFileStore } from "./postgres-files.js";
import { PostgresJobQueue } from "./postgres-job-queue.js";
import { PostgresKeywordIndex } from "./postgres-keyword-index.js";
import { PostgresKnowledgeStore } from "./postgres-knowledge-store.js";
import { PostgresMemoryFileStore } from "./postgres-memory-files.js";
import { PostgresOrganizationStore } from "./postgres-organizations.js";
import { PostgresPluginStore } from "./postgres-plugins.js";
import { PostgresPromptStore } from "./postgres-prompts.js";
import { PostgresProviderStore } from "./postgres-providers.js";
import { PostgresSchemaStore } from "./postgres-schemas.js";
import { PostgresScoreStore } from "./postgres-scores.js";
import { PostgresSkillStore } from "./postgres-skills.js";
import { PostgresStoredResponseStore } from "./postgres-stored-responses.js";
import { PostgresTraceStore } from "./postgres-traces.js";
import { PostgresUsageRecordStore } from "./postgres-usage-records.js";
import { PostgresVectorIndex, type PostgresVectorIndexOptions } from "./postgres-vector-index.js";
import type { SqlClient } from "./sql-client.js";

export interface OpenPostgresStoreOptions {
  /** The database (`fromPgPool` or `fromPGlite`); the store owns it from here: `close()` closes it. */
  client: SqlClient;
  clock?: Clock;
  ids?: IdGenerator;
  /** Master secret for provider credentials, as store-sqlite's `openStore` takes it. */
  secret?: string;
  /** Options of the knowledge bases' vector index. */
  vectors?: PostgresVectorIndexOptions;
}

/** Migrates the database and composes the PostgreSQL families over `options.client`. */
export async function openPostgresStore(options: OpenPostgresStoreOptions) {
  const { client } = options;
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? defaultIdGenerator;
  await runPostgresMigrations(client);
  const cipher = new CredentialCipher(options.secret ?? null);
  const apiKeys = new PostgresApiKeyStore(client, clock, ids);
  const usage = new PostgresUsageRecordStore(client, clock, ids);
  let closed = false;
  return {
    usage,
    analytics: new PostgresAnalyticsStore(client, usage, clock, ids),
    billing: new PostgresBillingStore(client, clock, ids),
    traces: new PostgresTraceStore(client, cipher, clock, ids),
    agents: new PostgresAgentStore(client, clock, ids),
    conversations: new PostgresConversationStore(client, clock, ids),
    memoryFiles: new PostgresMemoryFileStore(client, clock, ids),
    bashFiles: new PostgresBashFileStore(client, clock),
    connectors: new PostgresConnectorStore(client, cipher, clock, ids),
    plugins: new PostgresPluginStore(client, clock, ids),
    skills: new PostgresSkillStore(client, clock, ids),
    prompts: new PostgresPromptStore(client, clock, ids),
    datasets: new PostgresDatasetStore(client, clock, ids),
    evaluatorTemplates: new PostgresEvaluatorTemplateStore(client, clock, ids),
    scores: new PostgresScoreStore(client, clock, ids),
    annotationQueues: new PostgresAnnotationQueueStore(client, clock, ids),
    experiments: new PostgresExperimentStore(client, clock, ids),
    organizations: new PostgresOrganizationStore(client, clock, ids, () => apiKeys.forgetVerified()),
    apiKeys,
    jobs: new PostgresJobQueue(client, clock, ids),
    providers: new PostgresProviderStore(client, cipher, clock, ids),
    conversionTasks: new PostgresConversionTaskStore(client, clock, ids),
    files: new PostgresFileStore(client, clock, ids),
    extractions: new PostgresExtractionStore(client, clock, ids),
    schemas: new PostgresSchemaStore(client, clock, ids),
    storedResponses: new PostgresStoredResponseStore(client, clock),
    knowledgeBases: new PostgresKnowledgeStore(client, clock, ids),
    kbVectors: new PostgresVectorIndex(client, options.vectors),
    kbKeywords: new PostgresKeywordIndex(client),
    /** Answers when the database answers (the server's health check); throws when it does not. */
    async ping(): Promise<void> {
      await client.query("SELECT 1");
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      // Queued usage rows are written before the connection goes.
      await usage.close();
      await client.close();
    },
  };
}

export type PostgresStore = Awaited<ReturnType<typeof openPostgresStore>>;
