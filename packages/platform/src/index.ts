/**
 * @groundwork/platform: every engine composed over a store. `createGroundwork()`
 * is what the server calls and what an app imports.
 */

/** The server runs each request inside this so its traces carry `groundwork.request_id`. */
export { withTraceRequestId } from "@groundwork/observability";
export {
  AGENT_DEFINITION_FIELDS,
  AGENT_LABEL_MAX_LENGTH,
  AGENT_LABEL_PATTERN,
  type AgentChanges,
  AgentManagement,
  type AgentManagementOptions,
  type AgentWithLatest,
  type AppliedAgent,
  type LabelWithVersion,
  type PendingApprovalListing,
  type PolicyExplanation,
  type PolicyQuery,
  type ToolPolicyExplanation,
} from "./agents/agent-management.js";
export {
  type AgentResponsesBody,
  AgentRunner,
  type AgentRunnerOptions,
  agentResponsesBody,
  isAgentRef,
  PAUSE_TIMEOUT_MS,
  readOnlyJudge,
} from "./agents/agent-runner.js";
export { AGENT_STREAM_EVENT_TYPES, type AgentStreamEvent, openAgentStream } from "./agents/agent-stream.js";
export { definitionOf, resolveVersion, toolsOf } from "./agents/resolve.js";
export {
  type AgentToolCatalogs,
  type CatalogTool,
  type CatalogToolReason,
  connectorCatalogProvider,
  type ProvidedCatalog,
  type ToolCatalog,
  type ToolCatalogOptions,
  type ToolCatalogProvider,
  ToolCatalogService,
} from "./agents/tool-catalogs.js";
export { checkEndpoint, SIGNATURE_HEADER, signBody, type ToolServices } from "./agents/tool-executor.js";
export {
  type AnalyticsErrors,
  type AnalyticsProviders,
  type AnalyticsQuality,
  type AnalyticsQualityTrend,
  type AnalyticsQuery,
  type AnalyticsSchemas,
  AnalyticsService,
  type AnalyticsSummary,
  type AnalyticsTimeseries,
  analyticsQuery,
  USAGE_SURFACES,
} from "./analytics/analytics-service.js";
export {
  QUEUE_DESCRIPTION_MAX_LENGTH,
  QUEUE_MAX_CATEGORIES,
  QUEUE_MAX_ITEMS_PER_CALL,
  QUEUE_MAX_SCORE_CONFIGS,
  QUEUE_MIN_CATEGORIES,
  QUEUE_NAME_MAX_LENGTH,
  type QueueCreateInput,
  type QueueItemsAddInput,
  type QueueItemsBySubjectQuery,
  type QueueItemUpdateInput,
  type QueueUpdateInput,
  queueCreateBody,
  queueItemsAddBody,
  queueItemsBySubjectQuery,
  queueItemsQuery,
  queueItemUpdateBody,
  queueListQuery,
  queueScoreConfig,
  queueUpdateBody,
} from "./annotation-queues/annotation-queue-bodies.js";
export {
  AnnotationQueueService,
  type AnnotationQueueServiceOptions,
} from "./annotation-queues/annotation-queue-service.js";
export { BillingService, billingCheckBody, storeBillingMeter } from "./billing/billing-service.js";
export {
  DEFAULT_CONFIG,
  type GroundworkConfig,
  type GroundworkConfigInput,
  resolveConfig,
} from "./config.js";
export {
  allowanceBody,
  type ConnectionView,
  type ConnectorCatalog,
  ConnectorService,
  connectionBody,
  createConnectorBody,
  inputAnswerBody,
  prefixedToolName,
  updateConnectorBody,
} from "./connectors/connector-service.js";
export {
  type CancelledTurn,
  ConversationService,
  type ConversationSummary,
  conversationCancelBody,
  conversationCreateBody,
  conversationUpdateBody,
} from "./conversations/conversation-service.js";
export {
  CONVERT_JOB_KIND,
  ConversionService,
  type ConversionServiceOptions,
  type StoredTaskRequest,
} from "./conversion/conversion-service.js";
export { type FetchedSource, type FetchSourceOptions, fetchSource } from "./conversion/fetch-source.js";
export type { SharedLimits } from "./create-groundwork.js";
export { createGroundwork, Groundwork, type GroundworkOptions } from "./create-groundwork.js";
export {
  DATASET_BATCH_MAX_ITEMS,
  DATASET_ITEM_MAX_BYTES,
  DATASET_MAX_ITEMS,
  DATASET_METADATA_MAX_BYTES,
  type DatasetCreateInput,
  type DatasetItemInput,
  type DatasetItemsBatchInput,
  type DatasetItemUpdateInput,
  type DatasetUpdateInput,
  type DatasetVersionInput,
  datasetCreateBody,
  datasetItemBody,
  datasetItemsBatchBody,
  datasetItemsQuery,
  datasetItemUpdateBody,
  datasetListQuery,
  datasetUpdateBody,
  datasetVersionBody,
} from "./datasets/dataset-bodies.js";
export { type DatasetInUseCheck, DatasetService } from "./datasets/dataset-service.js";
export {
  CaseEvaluations,
  type EvaluatedCase,
  type EvaluationBody,
  type EvaluationReport,
  evaluationBody,
  MAX_EVALUATION_CASES,
} from "./evaluators/case-evaluation.js";
export {
  type EvaluatorSpec,
  type EvaluatorTemplateCreateInput,
  type EvaluatorTemplateUpdateInput,
  evaluatorSpec,
  evaluatorTemplateCreateBody,
  evaluatorTemplateUpdateBody,
} from "./evaluators/evaluator-commands.js";
export {
  type EvaluationRun,
  EvaluatorService,
  type EvaluatorServiceOptions,
  type PreparedEvaluator,
  type TemplateInUseCheck,
} from "./evaluators/evaluator-service.js";
export {
  baselineBody,
  comparisonQuery,
  EXPERIMENT_ITEM_CONCURRENCY,
  EXPERIMENT_MAX_EVALUATORS,
  EXPERIMENT_MAX_VARIANTS,
  type ExperimentCreateInput,
  type ExperimentUpdateInput,
  experimentCreateBody,
  experimentListQuery,
  experimentUpdateBody,
  type RunCreateInput,
  regressionQuery,
  resultListQuery,
  runCreateBody,
  runListQuery,
  VARIANT_KINDS,
  type VariantCreateInput,
  type VariantUpdateInput,
  variantCreateBody,
  variantUpdateBody,
} from "./experiments/experiment-bodies.js";
export { EXPERIMENT_RUN_JOB_KIND, ExperimentRunWorker } from "./experiments/experiment-run-worker.js";
export { ExperimentService, type ExperimentView, type RunView } from "./experiments/experiment-service.js";
export {
  EXTRACTION_JOB_KIND,
  type ExtractionPlan,
  type ExtractionRequest,
  ExtractionService,
  type ExtractionServiceOptions,
  extractionResult,
  failureMessage,
} from "./extraction/extraction-service.js";
export { gatewayChatModel } from "./extraction/gateway-chat-model.js";
export {
  type ResolvedSchema,
  SchemaService,
  type SchemaTestResult,
  type SchemaWithLatest,
} from "./extraction/schema-service.js";
export {
  FILE_PURPOSES,
  type FilePurpose,
  FileService,
  type FileUpload,
  MAX_FILE_BYTES,
} from "./files/file-service.js";
export {
  type ConnectionTest,
  type ProviderChanges,
  type ProviderInput,
  type ProviderModels,
  ProviderService,
} from "./gateway/provider-service.js";
export {
  createStoreGateway,
  type StoreGatewayOptions,
  type StorePlanAllowanceOptions,
  storePlanAllowance,
  toProviderAccount,
} from "./gateway/store-gateway.js";
export { ConverterDocumentParser, detectUpload, isDocumentError } from "./knowledge/document-parser.js";
export { backgroundPrincipal, GatewayEmbeddingModel, modelStringFor } from "./knowledge/embedding-bridge.js";
export {
  type KnowledgeBaseChanges,
  type KnowledgeBaseFields,
  knowledgeBaseChangesSchema,
  knowledgeBaseFieldsSchema,
} from "./knowledge/knowledge-base-fields.js";
export { KnowledgeBases, type KnowledgeBasesOptions } from "./knowledge/knowledge-bases.js";
export {
  type DocumentUpload,
  type KnowledgeDocument,
  KnowledgeDocuments,
  type UploadOutcome,
} from "./knowledge/knowledge-documents.js";
export {
  KB_INGEST_JOB_KIND,
  KB_REINDEX_JOB_KIND,
  type KnowledgeSearchRequest,
  KnowledgeService,
  type KnowledgeServiceOptions,
  type WarmedKnowledgeBase,
} from "./knowledge/knowledge-service.js";
export {
  type MemoryWriteCommand,
  type MemoryWriteInput,
  memoryWriteCommand,
} from "./memory/memory-commands.js";
export {
  type ErasedMemory,
  type MemberUsage,
  type MemoryFileContent,
  MemoryService,
  type MemoryWriteResult,
} from "./memory/memory-service.js";
export {
  DEFAULT_PRIVATE_NETWORK_SETTING,
  guardedFetch,
  isPrivateAddress,
  lookupPublicOnly,
} from "./network/guarded-network.js";
export {
  applyChanges,
  BASH_BUILTINS,
  BASH_LIMITS,
  type BashChange,
  type BashResult,
  type BashSnapshot,
  BashTreeCache,
  runBash,
  type SkillFiles,
  snapshotUsage,
} from "./platform-tools/bash-sandbox.js";
export { type ImageInfo, imageInfo } from "./platform-tools/image-info.js";
export {
  type PlatformToolOptions,
  PlatformToolRunner,
  type WebSearchConfig,
  webSearchUnavailable,
} from "./platform-tools/platform-tool-runner.js";
export { pluginConnectorsOf } from "./plugins/plugin-connectors.js";
export {
  NO_PLUGIN_CONNECTORS,
  type PluginChanges,
  type PluginConnectorPort,
  type PluginConnectorRef,
  type PluginResult,
  PluginService,
  type PluginServiceOptions,
  type PluginSourceBody,
  type PluginSourceInput,
  pluginSourceBody,
} from "./plugins/plugin-service.js";
export {
  fetchPluginZip,
  PLUGIN_FETCH_MAX_REDIRECTS,
  PLUGIN_FETCH_TIMEOUT_MS,
} from "./plugins/plugin-source.js";
export {
  MAX_PROMPT_CONFIG_BYTES,
  MAX_PROMPT_MESSAGES,
  MAX_PROMPT_TEXT,
  PROMPT_LABEL_PATTERN,
  PROMPT_NAME_PATTERN,
  PROMPT_ROLES,
  PROMPT_TYPES,
  type PromptCompileInput,
  type PromptConfig,
  type PromptCreateInput,
  type PromptListQuery,
  type PromptResolveQuery,
  type PromptTestInput,
  type PromptUpdateInput,
  type PromptVersionInput,
  promptCompileBody,
  promptCreateBody,
  promptLabelCreateBody,
  promptLabelUpdateBody,
  promptListQuery,
  promptResolveQuery,
  promptTestBody,
  promptUpdateBody,
  promptVersionBody,
} from "./prompts/prompt-bodies.js";
export {
  type CompiledPrompt,
  contentVariables,
  PRODUCTION_LABEL,
  type PromptInUseCheck,
  PromptService,
  type PromptServiceOptions,
  type PromptTestResult,
  type PromptVersionView,
  type ResolvedPrompt,
} from "./prompts/prompt-service.js";
export { recordStreamedResponse } from "./responses/record-streamed-response.js";
export {
  STORED_RESPONSE_RETENTION_MS,
  StoredResponseService,
} from "./responses/stored-response-service.js";
export {
  type EvaluationScoreInput,
  evaluationScore,
  SCORE_CATEGORY_MAX_LENGTH,
  SCORE_COMMENT_MAX_LENGTH,
  SCORE_DATA_TYPES,
  SCORE_NAME_MAX_LENGTH,
  SCORE_NAME_PATTERN,
  SCORE_SOURCES,
  type ScoreListQuery,
  type ScoreRecordInput,
  ScoreService,
  scoreListQuery,
  scoreRecordBody,
} from "./scores/score-service.js";
export {
  SCORE_SUBJECT_TYPES,
  type ScoreSubjectLookups,
  ScoreSubjects,
  type ScoreSubjectType,
  type SubjectLookup,
} from "./scores/score-subjects.js";
export {
  SKILL_LABEL_NAME,
  type SkillImportFilesBody,
  skillImportFilesBody,
  skillLabelCreateBody,
  skillLabelMoveBody,
} from "./skills/skill-bodies.js";
export { SkillRunTools } from "./skills/skill-run-tools.js";
export {
  type AgentSkillResolution,
  type AgentSkills,
  type CommitPackageOptions,
  type ResolvedSkill,
  type SkillBindingResolution,
  type SkillFile,
  type SkillImportInput,
  type SkillImportResult,
  type SkillResolutionStatus,
  SkillService,
} from "./skills/skill-service.js";
export type { AtomicPort, PlatformStore, StoreFamilies, StorePort } from "./store-port.js";
export {
  DEFAULT_TRACE_WINDOW_MS,
  MAX_EXPORT_HEADERS,
  MAX_TRACE_WINDOW_MS,
  SESSION_TRACES_LIMIT,
  type SpanNode,
  spanTree,
  TRACE_KINDS,
  type TraceDetail,
  type TraceListQuery,
  type TraceSessionListQuery,
  TracingService,
  type TracingServiceOptions,
  type TracingSettingsInput,
  traceListQuery,
  traceSessionListQuery,
  tracingSettingsBody,
} from "./tracing/tracing-service.js";
export { formatParam, validate } from "./validate.js";
