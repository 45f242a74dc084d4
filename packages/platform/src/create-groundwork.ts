/**
 * The composition root: one object with a service per job over one store and one
 * gateway, and the background workers that run queued jobs. The server builds it
 * from its environment; an app builds it from a config object and calls the same
 * services the HTTP routes call.
 */
import { PAUSE_TIMEOUT_MS, type ToolJudge } from "@groundwork/agents";
import {
  type Allowance,
  type Clock,
  type ConcurrencySlots,
  type IdGenerator,
  type Principal,
  type RequestCounter,
  type Role,
  UNLIMITED_ALLOWANCE,
} from "@groundwork/core";
import { createOpenAICompatibleAdapter, type Gateway } from "@groundwork/gateway";
import type { DocumentParser } from "@groundwork/kb";
import { BillingLedger } from "@groundwork/observability";
import { AgentManagement } from "./agents/agent-management.js";
import { AgentRunner } from "./agents/agent-runner.js";
import { type AgentStreamEvent, openAgentStream } from "./agents/agent-stream.js";
import { connectorCatalogProvider, ToolCatalogService } from "./agents/tool-catalogs.js";
import { AnalyticsService } from "./analytics/analytics-service.js";
import { AnnotationQueueService } from "./annotation-queues/annotation-queue-service.js";
import { BillingService, storeBillingMeter } from "./billing/billing-service.js";
import { type GroundworkConfig, type GroundworkConfigInput, resolveConfig } from "./config.js";
import { ConnectorService } from "./connectors/connector-service.js";
import { ConversationService } from "./conversations/conversation-service.js";
import { ConversionService } from "./conversion/conversion-service.js";
import { DatasetService } from "./datasets/dataset-service.js";
import { CaseEvaluations } from "./evaluators/case-evaluation.js";
import { EvaluatorService } from "./evaluators/evaluator-service.js";
import { ExperimentRunWorker } from "./experiments/experiment-run-worker.js";
import { ExperimentService } from "./experiments/experiment-service.js";
import { ExtractionService } from "./extraction/extraction-service.js";
import { fileInputConverter } from "./extraction/file-input.js";
import { SchemaService } from "./extraction/schema-service.js";
import { FileService } from "./files/file-service.js";
import { ProviderService } from "./gateway/provider-service.js";
import { createStoreGateway } from "./gateway/store-gateway.js";
import { KnowledgeService } from "./knowledge/knowledge-service.js";
import { MemoryService } from "./memory/memory-service.js";
import { type PlatformToolOptions, PlatformToolRunner } from "./platform-tools/platform-tool-runner.js";
import { pluginConnectorsOf } from "./plugins/plugin-connectors.js";
import { PluginService } from "./plugins/plugin-service.js";
import { PromptService } from "./prompts/prompt-service.js";
import { recordStreamedResponse } from "./responses/record-streamed-response.js";
import { StoredResponseService } from "./responses/stored-response-service.js";
import { ScoreService } from "./scores/score-service.js";
import { type ScoreSubjectLookups, ScoreSubjects } from "./scores/score-subjects.js";
import { SkillRunTools } from "./skills/skill-run-tools.js";
import { SkillService } from "./skills/skill-service.js";
import type { PlatformStore } from "./store-port.js";
import { TracingService } from "./tracing/tracing-service.js";

export interface GroundworkOptions {
  store: PlatformStore;
  config?: GroundworkConfigInput;
  /**
   * What each organization may use (plans, included usage), asked before gated or
   * billed work. None: everything is allowed. The server passes `storePlanAllowance(store)`.
   */
  allowance?: Allowance;
  /** Replaces the gateway the config describes (a custom adapter factory, tests). */
  gateway?: Gateway;
  /**
   * Whether the gateway has a built-in model service, for the knowledge bases' embedding
   * catalogue (`text-embedding-3-small|large`); by default whether `config.builtin` is set.
   */
  builtinEmbeddings?: boolean;
  /** The transport of every model call (the server passes its undici-based fast fetch). */
  fetch?: typeof fetch;
  clock?: Clock;
  ids?: IdGenerator;
  /**
   * Decides JUDGE verdicts of agent tool calls that are not read-class (read tools run without
   * a judge call); by default the model judge of PLATFORM.md §6 (`config.agents.judgeModel`).
   */
  judge?: ToolJudge;
  /** Reads knowledge-base uploads; by default the conversion engine in a worker thread. */
  documentParser?: DocumentParser;
  /** The transport of agent function tools (tests); by default one that refuses private addresses. */
  toolFetch?: typeof fetch;
  /** Replaces the guarded transport of plugin source downloads (tests). */
  pluginFetch?: typeof fetch;
  /**
   * Whether experiment run results exist, for scores on them; a
   * subject type without a lookup has no subjects in this build (a score on one is 404).
   */
  scoreSubjects?: ScoreSubjectLookups;
  /** The transport of connector (MCP) calls (tests); by default one that refuses private addresses. */
  connectorFetch?: typeof fetch;
  /** Whether a model takes image input (`platform_view_image`); by default every model does. */
  acceptsImages?: (model: string) => boolean;
  /** Replaces the read-only `/skills` copies of `platform_bash` for a run (by default the response's resolved skills). */
  skillFiles?: PlatformToolOptions["skillFiles"];
  /** Replaces the guarded transport of OTLP trace export (tests). */
  tracingFetch?: typeof fetch;
  /**
   * Where the per-organization limits are counted; by default in this process. Several
   * processes on one database pass shared ones (`PostgresRequestCounter`,
   * `PostgresConcurrencySlots`), so together they never exceed a limit (issue #24). A plan
   * allowance from `storePlanAllowance` counts requests in its own ledger: pass the counter there too.
   */
  limits?: SharedLimits;
}

/** The counters of per-organization limits that several processes must share. */
export interface SharedLimits {
  /** Requests per minute (PLATFORM.md §15). */
  requests?: RequestCounter;
  /** Concurrent calls to an organization's own providers (`byokConcurrency`). */
  concurrency?: ConcurrencySlots;
}

export class Groundwork {
  readonly config: GroundworkConfig;
  readonly store: PlatformStore;
  /** Chat, streams, embeddings, responses and models over the built-in service and the organizations' providers. */
  readonly gateway: Gateway;
  /** The organizations' own provider accounts (create, test, list their models). */
  readonly providers: ProviderService;
  /** Synchronous conversion and async conversion tasks. */
  readonly conversion: ConversionService;
  /** Schema-version resolution and extractions (in the request or as background jobs). */
  readonly extraction: ExtractionService;
  /** Schemas, versions, labels, resolve, lint and test runs. */
  readonly schemas: SchemaService;
  /** Knowledge bases: CRUD with configuration versions, documents, ingestion, reindexing, search and citations. */
  readonly knowledge: KnowledgeService;
  /** Files of an organization (uploads that knowledge bases attach and agents read). */
  readonly files: FileService;
  /** Agent runs: start, continue with approvals and relayed outputs, stream. */
  readonly agents: AgentRunner;
  /** Agents themselves: apply definition files, versions, labels, catalog, policy explanations, pending approvals. */
  readonly agentManagement: AgentManagement;
  /** Conversations: create, list, read, summary, update, delete, items, cancel the active turn. */
  readonly conversations: ConversationService;
  /** Every `/v1/responses` answer, read back, listed and deleted (PLATFORM.md §2.6). */
  readonly responses: StoredResponseService;
  /** Members' memory: each API key's own file tree under /memories, usage and erasure for Admins. */
  readonly memory: MemoryService;
  /** Scores on responses, extractions, conversations, …: record, list, and evaluator scores in bulk. */
  readonly scores: ScoreService;
  /** Evaluator types, LLM-judge templates and scoring cases with them (PLATFORM.md §9). */
  readonly evaluators: EvaluatorService;
  /** Cases, or an app's outputs for a dataset's items, scored with one evaluator (scores recorded on the items). */
  readonly evaluations: CaseEvaluations;
  /** Datasets: items (single and batch adds), updates, deletes and frozen versions. */
  readonly datasets: DatasetService;
  /** Prompts: text and chat templates, immutable versions, labels, resolve, compile and test calls. */
  readonly prompts: PromptService;
  /** Skills: imported packages, versions with their files, labels, and agent skill-binding resolution. */
  readonly skills: SkillService;
  /** `GET /v1/agents/{agentId}/tool-catalogs` (PLATFORM.md §4.5). */
  readonly toolCatalogs: ToolCatalogService;
  /** Plugins: zips that install namespaced skills, connectors and agents, updated, synced and removed as one. */
  readonly plugins: PluginService;
  /** Connectors (remote MCP servers): registration, members' connections and allowances, questions. */
  readonly connectors: ConnectorService;
  /** Usage, errors, providers and extraction quality of an organization over a time range (PLATFORM.md §14). */
  readonly analytics: AnalyticsService;
  /** Billing (PLATFORM.md §15): tiers, limits with their counters, checks; the request rate of each organization. */
  readonly billing: BillingService;
  /** Annotation queues: score configs, items on subjects, claims that lock an item to one member, scored completion. */
  readonly annotationQueues: AnnotationQueueService;
  /** Experiments: variants over a dataset version, durable runs with evaluator scores, baseline, regression, comparison. */
  readonly experiments: ExperimentService;
  /** Runs experiment runs on the job queue (`experiment-run`); `drain()` runs queued ones now. */
  readonly experimentRuns: ExperimentRunWorker;
  /** Traces and sessions, tracing settings, retention and OTLP export; its hooks trace the gateway. */
  readonly tracing: TracingService;
  private started = false;
  private closing: Promise<void> | null = null;

  constructor(options: GroundworkOptions) {
    const config = resolveConfig(options.config);
    this.config = config;
    this.store = options.store;
    // The plan allowance's own ledger when it has one, so /v1/billing reports what is enforced.
    const allowance = options.allowance ?? UNLIMITED_ALLOWANCE;
    this.billing = new BillingService(
      options.store,
      "ledger" in allowance && allowance.ledger instanceof BillingLedger
        ? allowance.ledger
        : new BillingLedger(storeBillingMeter(options.store), {
            ...(options.clock === undefined ? {} : { clock: options.clock }),
            ...(options.limits?.requests === undefined ? {} : { requests: options.limits.requests }),
          }),
      allowance,
    );
    this.tracing = new TracingService(options.store, {
      allowPrivateNetwork: config.allowPrivateNetwork,
      allowPrivateNetworkSetting: config.settingNames.allowPrivateNetwork,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.tracingFetch === undefined ? {} : { fetch: options.tracingFetch }),
    });
    // Every engine traces through the recording tracer (PLATFORM.md §13).
    const traceHooks = this.tracing.hooks;
    this.gateway =
      options.gateway ??
      createStoreGateway(options.store, {
        builtin: config.builtin,
        byokConcurrency: config.byokConcurrency,
        ...(options.limits?.concurrency === undefined
          ? {}
          : { concurrencySlots: options.limits.concurrency }),
        chatPrices: config.chatPrices,
        allowance,
        builtinSetting: config.settingNames.builtin,
        traceHooks,
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        ...(options.clock === undefined ? {} : { clock: options.clock }),
      });
    this.providers = new ProviderService(options.store, this.gateway);
    const vision =
      config.visionModel !== null && config.builtin !== null
        ? {
            model: config.visionModel,
            chatModel: createOpenAICompatibleAdapter({
              provider: "the vision model service",
              baseUrl: config.builtin.baseUrl,
              apiKey: config.builtin.apiKey,
              ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
            }),
          }
        : null;
    this.conversion = new ConversionService(options.store, {
      vision,
      vlmUnavailableMessage: `The vlm pipeline needs a vision model: set ${config.settingNames.visionModel}`,
      allowPrivateNetwork: config.allowPrivateNetwork,
      allowPrivateNetworkSetting: config.settingNames.allowPrivateNetwork,
      fetchTimeoutMs: config.conversion.fetchTimeoutMs,
      tessdataDir: config.conversion.tessdataDir,
      maxFetchBytes: config.conversion.maxFetchBytes,
      leaseMs: config.workers.leaseMs,
      pollMs: config.workers.pollMs,
      traceHooks,
      allowance,
      recordPages: async (organizationId, pages) => await this.billing.recordPages(organizationId, pages),
    });
    this.files = new FileService(options.store, allowance);
    this.extraction = new ExtractionService(options.store, this.gateway, {
      settings: config.extraction.settings,
      chatPrices: config.chatPrices,
      leaseMs: config.workers.leaseMs,
      pollMs: config.workers.pollMs,
      traceHooks,
      convertFile: fileInputConverter(this.files, this.conversion),
    });
    this.schemas = new SchemaService(options.store, this.extraction);
    this.knowledge = new KnowledgeService(options.store, this.gateway, {
      ...(options.documentParser === undefined ? {} : { parser: options.documentParser }),
      builtinEmbeddings: options.builtinEmbeddings ?? config.builtin !== null,
      allowance,
      leaseMs: config.workers.leaseMs,
      pollMs: config.workers.pollMs,
      traceHooks,
    });
    // The runner and the approvals listing must agree on the clock and when a pause expires.
    const pauseClock = {
      ...(config.agents.pauseTimeoutMs === null ? {} : { pauseTimeoutMs: config.agents.pauseTimeoutMs }),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    };
    this.connectors = new ConnectorService(options.store, {
      allowPrivateNetwork: config.allowPrivateNetwork,
      allowPrivateNetworkSetting: config.settingNames.allowPrivateNetwork,
      pauseTimeoutMs: config.agents.pauseTimeoutMs ?? PAUSE_TIMEOUT_MS,
      callTimeoutMs: config.agents.connectorCallTimeoutMs,
      listTimeoutMs: config.agents.connectorListTimeoutMs,
      questionLeaseMs: config.workers.leaseMs,
      ...(options.connectorFetch === undefined ? {} : { fetch: options.connectorFetch }),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    });
    this.skills = new SkillService(options.store, {
      ...(options.allowance === undefined ? {} : { allowance: options.allowance }),
    });
    const skillTools = new SkillRunTools(this.skills);
    const platformTools = new PlatformToolRunner(options.store, this.files, {
      webSearch: config.webSearch,
      allowPrivateNetwork: config.allowPrivateNetwork,
      allowPrivateNetworkSetting: config.settingNames.allowPrivateNetwork,
      webSearchSetting: config.settingNames.webSearch,
      ...(options.toolFetch === undefined ? {} : { fetch: options.toolFetch }),
      ...(options.acceptsImages === undefined ? {} : { acceptsImages: options.acceptsImages }),
      // The `/skills` tree of platform_bash: the versions the response resolved (PLATFORM.md §6).
      skillFiles: options.skillFiles ?? (async (_principal, state) => await skillTools.skillFiles(state)),
    });
    this.toolCatalogs = new ToolCatalogService(options.store, {
      skillTools,
      implicitTools: () => platformTools.implicitTools(),
      providers: [connectorCatalogProvider(this.connectors)],
    });
    this.agents = new AgentRunner(
      options.store,
      this.gateway,
      {
        conversion: this.conversion,
        extraction: this.extraction,
        knowledge: this.knowledge,
        skillTools,
        platformTools,
      },
      {
        allowPrivateNetwork: config.allowPrivateNetwork,
        allowPrivateNetworkSetting: config.settingNames.allowPrivateNetwork,
        functionTimeoutMs: config.agents.functionTimeoutMs,
        ...pauseClock,
        ...(config.agents.maxSteps === null ? {} : { maxSteps: config.agents.maxSteps }),
        judgeModel: config.agents.judgeModel,
        judgeModelSetting: config.settingNames.judgeModel,
        leaseMs: config.workers.leaseMs,
        pollMs: config.workers.pollMs,
        ...(options.ids === undefined ? {} : { ids: options.ids }),
        ...(options.judge === undefined ? {} : { judge: options.judge }),
        ...(options.toolFetch === undefined ? {} : { fetch: options.toolFetch }),
        connectors: this.connectors,
        chatUrl: (config.chatUrl ?? "").replace(/\/+$/, ""),
        traceHooks,
      },
    );
    this.agentManagement = new AgentManagement(options.store, pauseClock);
    this.memory = new MemoryService(options.store);
    this.evaluators = new EvaluatorService(options.store, this.gateway);
    this.datasets = new DatasetService(options.store);
    this.plugins = new PluginService(options.store, this.skills, this.agentManagement, {
      allowPrivateNetwork: config.allowPrivateNetwork,
      allowPrivateNetworkSetting: config.settingNames.allowPrivateNetwork,
      ...(options.pluginFetch === undefined ? {} : { fetch: options.pluginFetch }),
      connectors: pluginConnectorsOf(this.connectors, options.store),
    });
    this.conversations = new ConversationService(options.store, this.agents, config.chatPrices);
    this.responses = new StoredResponseService(options.store, (state) => this.agents.render(state));
    this.scores = new ScoreService(options.store, new ScoreSubjects(options.store, options.scoreSubjects));
    this.evaluations = new CaseEvaluations(this.evaluators, this.datasets, this.scores);
    this.annotationQueues = new AnnotationQueueService(options.store, this.scores, {
      lockSeconds: config.queues.lockSeconds,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    });
    this.prompts = new PromptService(options.store, this.gateway);
    this.analytics = new AnalyticsService(options.store, options.clock);
    this.experimentRuns = new ExperimentRunWorker(
      options.store,
      {
        store: options.store,
        gateway: this.gateway,
        prompts: this.prompts,
        agents: this.agents,
        extraction: this.extraction,
        chatPrices: config.chatPrices,
      },
      this.evaluators,
      this.scores,
      { leaseMs: config.workers.leaseMs, pollMs: config.workers.pollMs, traceHooks },
    );
    this.experiments = new ExperimentService(options.store, {
      datasets: this.datasets,
      prompts: this.prompts,
      evaluators: this.evaluators,
      worker: this.experimentRuns,
      flushTraces: () => this.tracing.flush(),
    });
  }

  /**
   * Starts the background workers: async conversion tasks, background extractions,
   * knowledge-base ingestion and reindexing, the agents' pause windows — including jobs a previous process left
   * unfinished. Idempotent. `{ workers: false }` starts everything but the job workers: a
   * process that only serves requests while other processes run the jobs (the server's
   * `--no-workers` on PostgreSQL); its queued jobs wait for them.
   */
  async start(options: { workers?: boolean } = {}): Promise<this> {
    if (this.started) return this;
    this.started = true;
    const workers = options.workers ?? true;
    if (workers) {
      this.conversion.startWorker();
      this.extraction.startWorker();
      this.knowledge.startWorker();
    }
    // Questions an earlier run or a dead process left open lost their calls: answered `cancel`
    // now; those of other live processes stay open (their owners renew them).
    await this.connectors.start();
    if (workers) {
      this.agents.startWorker();
      this.experimentRuns.start();
    }
    // Retention is enforced at read; the rows past it are removed at each start.
    await this.responses.purgeExpired();
    // Traces past their retention: now, then hourly.
    await this.tracing.start();
    return this;
  }

  /** Stops the workers (a running job finishes or is left for the next start) and releases their resources; the store stays open. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.conversion.close();
      await this.connectors.stop();
      await this.extraction.stopWorker();
      await this.knowledge.stopWorker();
      await this.agents.stopWorker();
      await this.experimentRuns.stop();
      // Last: the workers' final spans are stored and exported.
      await this.tracing.close();
    })();
    return this.closing;
  }

  /**
   * Whom a library call acts for: an organization of the store (created on first use,
   * plan enterprise) with the Admin role. The server passes the API key's principal instead.
   */
  async principal(organizationName = "default", role: Role = "admin"): Promise<Principal> {
    const record = (await this.store.organizations.ensure(organizationName, "enterprise")).organization;
    return {
      organizationId: record.id,
      organizationName: record.name,
      plan: record.plan,
      role,
      apiKeyId: "",
    };
  }

  /** `POST /v1/responses` with an `agent/…` model: the response object, or its event stream. */
  async respondWithAgent(
    principal: Principal,
    raw: unknown,
    signal?: AbortSignal,
  ): Promise<{ json: unknown } | { events: AsyncIterable<AgentStreamEvent> }> {
    const body = this.agents.parseBody(raw);
    if (body.stream === true) {
      const events = await openAgentStream(this.agents, principal, body, signal);
      return {
        events: recordStreamedResponse(
          events,
          "first",
          async (id) => await this.responses.recordAgent(principal, body.input, id),
        ),
      };
    }
    const state = await this.agents.respond(principal, body, signal === undefined ? {} : { signal });
    await this.responses.recordAgent(principal, body.input, state.id);
    return { json: this.agents.render(state) };
  }
}

/** Composes every engine over `store` (see {@link GroundworkOptions}); call `start()` to run background jobs. */
export function createGroundwork(options: GroundworkOptions): Groundwork {
  return new Groundwork(options);
}
