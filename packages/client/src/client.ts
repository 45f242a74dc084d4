/**
 * A typed fetch client for the Groundwork `/v1` API. Every method maps to one
 * endpoint; errors come back as the core `GroundworkError` carrying the API's
 * status, type, code, param and message, so callers handle one error type.
 */
import { type ErrorType, GroundworkError } from "@groundwork/core";
import type * as T from "./types.js";

export interface ClientOptions {
  /** The server's origin without `/v1`, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof globalThis.fetch;
  /** Sent as `user-agent` so server logs can tell clients apart. */
  userAgent?: string;
}

type Query = Record<string, string | number | boolean | undefined>;

interface RequestOptions {
  query?: Query;
  json?: unknown;
  form?: FormData;
  /** Answer the body as text (downloads, text transcriptions) instead of parsing JSON. */
  raw?: boolean;
  signal?: AbortSignal;
}

/** A response body that is not JSON (downloads, text formats). */
export interface RawBody {
  contentType: string;
  text: string;
  bytes: Uint8Array;
}

const enc = encodeURIComponent;

export class GroundworkClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof globalThis.fetch;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  /** Calls any endpoint; the typed methods below are thin wrappers around it. */
  async request<R>(method: string, path: string, options: RequestOptions = {}): Promise<R> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {};
    if (this.options.apiKey !== "") headers.authorization = `Bearer ${this.options.apiKey}`;
    if (this.options.userAgent !== undefined) headers["user-agent"] = this.options.userAgent;
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      body = options.form;
    }
    const response = await this.fetchImpl(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (!response.ok) throw await toError(response, method, path);
    if (response.status === 204) return undefined as R;
    const contentType = response.headers.get("content-type") ?? "";
    if (options.raw === true || !contentType.includes("application/json")) {
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { contentType, text: new TextDecoder().decode(bytes), bytes } satisfies RawBody as R;
    }
    return (await response.json()) as R;
  }

  // ---- AI gateway ----

  readonly chat = {
    completions: (body: T.ChatCompletionBody, signal?: AbortSignal) =>
      this.request<T.ChatCompletion>("POST", "/v1/chat/completions", {
        json: { ...body, stream: false },
        ...sig(signal),
      }),
  };

  readonly responses = {
    create: (body: T.ResponsesBody, signal?: AbortSignal) =>
      this.request<T.JsonObject>("POST", "/v1/responses", {
        json: { ...body, stream: false },
        ...sig(signal),
      }),
  };

  readonly models = {
    list: () => this.request<T.ListOf<T.ModelEntry>>("GET", "/v1/models"),
  };

  readonly embeddings = {
    create: (body: T.EmbeddingsBody) => this.request<T.JsonObject>("POST", "/v1/embeddings", { json: body }),
  };

  readonly audio = {
    transcribe: (input: { file: Blob; filename: string; model: string; fields?: Record<string, string> }) => {
      const form = new FormData();
      form.set("file", input.file, input.filename);
      form.set("model", input.model);
      for (const [name, value] of Object.entries(input.fields ?? {})) form.set(name, value);
      return this.request<T.JsonObject | RawBody>("POST", "/v1/audio/transcriptions", { form });
    },
  };

  // ---- providers ----

  readonly providers = {
    list: (page?: T.PageQuery) =>
      this.request<T.Page<T.Provider>>("GET", "/v1/providers", { query: { ...page } }),
    get: (id: string) => this.request<T.Provider>("GET", `/v1/providers/${enc(id)}`),
    create: (body: T.ProviderBody) => this.request<T.Provider>("POST", "/v1/providers", { json: body }),
    update: (id: string, body: Partial<T.ProviderBody>) =>
      this.request<T.Provider>("PATCH", `/v1/providers/${enc(id)}`, { json: body }),
    delete: (id: string) => this.request<void>("DELETE", `/v1/providers/${enc(id)}`),
    test: (body: Omit<T.ProviderBody, "name">) =>
      this.request<T.ProviderTestResult>("POST", "/v1/providers/test", { json: body }),
    models: () => this.request<T.JsonObject>("GET", "/v1/providers/models"),
    embeddingModels: (providerId: string) =>
      this.request<T.EmbeddingModelCatalogue>("GET", `/v1/providers/${enc(providerId)}/embedding-models`),
  };

  // ---- schemas ----

  readonly schemas = {
    list: (query?: T.PageQuery & { search?: string }) =>
      this.request<T.Page<T.JsonObject>>("GET", "/v1/schemas", { query: { ...query } }),
    get: (schemaId: string) => this.request<T.JsonObject>("GET", `/v1/schemas/${enc(schemaId)}`),
    create: (body: { name: string; description?: string }) =>
      this.request<T.JsonObject>("POST", "/v1/schemas", { json: body }),
    update: (schemaId: string, body: { name?: string; description?: string }) =>
      this.request<T.JsonObject>("PUT", `/v1/schemas/${enc(schemaId)}`, { json: body }),
    delete: (schemaId: string) => this.request<void>("DELETE", `/v1/schemas/${enc(schemaId)}`),
    resolve: (schemaId: string, label?: string) =>
      this.request<T.JsonObject>("GET", `/v1/schemas/${enc(schemaId)}/resolve`, { query: { label } }),
    validate: (schemaId: string, jsonSchema: unknown) =>
      this.request<T.JsonObject>("POST", `/v1/schemas/${enc(schemaId)}/validate`, { json: { jsonSchema } }),
    test: (schemaId: string, body: { jsonSchema?: unknown; sampleText: string; model: string }) =>
      this.request<T.JsonObject>("POST", `/v1/schemas/${enc(schemaId)}/test`, { json: body }),
    versions: {
      create: (schemaId: string, body: { jsonSchema: unknown; changeDescription?: string }) =>
        this.request<T.JsonObject>("POST", `/v1/schemas/${enc(schemaId)}/versions`, { json: body }),
      list: (schemaId: string, page?: T.PageQuery) =>
        this.request<T.Page<T.JsonObject>>("GET", `/v1/schemas/${enc(schemaId)}/versions`, {
          query: { ...page },
        }),
      get: (schemaId: string, versionId: string) =>
        this.request<T.JsonObject>("GET", `/v1/schemas/${enc(schemaId)}/versions/${enc(versionId)}`),
      latest: (schemaId: string) =>
        this.request<T.JsonObject>("GET", `/v1/schemas/${enc(schemaId)}/versions/latest`),
      delete: (schemaId: string, versionId: string) =>
        this.request<void>("DELETE", `/v1/schemas/${enc(schemaId)}/versions/${enc(versionId)}`),
      activate: (schemaId: string, versionId: string) =>
        this.request<T.JsonObject>("PUT", `/v1/schemas/${enc(schemaId)}/versions/${enc(versionId)}/activate`),
    },
    labels: {
      list: (schemaId: string) =>
        this.request<T.JsonObject[] | T.JsonObject>("GET", `/v1/schemas/${enc(schemaId)}/labels`),
      create: (schemaId: string, body: { name: string; schemaVersionId: string }) =>
        this.request<T.JsonObject>("POST", `/v1/schemas/${enc(schemaId)}/labels`, { json: body }),
      update: (schemaId: string, labelName: string, body: { schemaVersionId: string }) =>
        this.request<T.JsonObject>("PUT", `/v1/schemas/${enc(schemaId)}/labels/${enc(labelName)}`, {
          json: body,
        }),
      delete: (schemaId: string, labelName: string) =>
        this.request<void>("DELETE", `/v1/schemas/${enc(schemaId)}/labels/${enc(labelName)}`),
    },
  };

  // ---- extractions ----

  readonly extractions = {
    create: (body: T.ExtractionBody) => this.request<T.JsonObject>("POST", "/v1/extractions", { json: body }),
    createAsync: (body: T.ExtractionBody) =>
      this.request<T.JsonObject>("POST", "/v1/extractions/async", { json: body }),
    get: (id: string) => this.request<T.JsonObject>("GET", `/v1/extractions/${enc(id)}`),
    list: (query?: T.PageQuery & { search?: string; schemaVersionId?: string; status?: string }) =>
      this.request<T.Page<T.JsonObject>>("GET", "/v1/extractions", { query: { ...query } }),
    delete: (id: string) => this.request<void>("DELETE", `/v1/extractions/${enc(id)}`),
    estimate: (body: { schemaId: string; schemaVersionId?: string; inputText: string }) =>
      this.request<T.JsonObject>("POST", "/v1/extractions/estimate", { json: body }),
    rerun: (id: string) => this.request<T.JsonObject>("POST", `/v1/extractions/${enc(id)}/rerun`),
  };

  // ---- document conversion ----

  readonly convert = {
    source: (body: T.ConvertSourceBody) =>
      this.request<T.JsonObject>("POST", "/v1/convert/source", { json: body }),
    sourceAsync: (body: T.ConvertSourceBody) =>
      this.request<T.JsonObject>("POST", "/v1/convert/source/async", { json: body }),
    file: (input: T.ConvertFileInput) =>
      this.request<T.JsonObject>("POST", "/v1/convert/file", {
        form: convertForm(input),
        query: { pipeline: input.pipeline },
      }),
    fileAsync: (input: T.ConvertFileInput) =>
      this.request<T.JsonObject>("POST", "/v1/convert/file/async", {
        form: convertForm(input),
        query: { pipeline: input.pipeline },
      }),
    task: (taskId: string, wait?: number) =>
      this.request<T.JsonObject>("GET", `/v1/convert/tasks/${enc(taskId)}`, { query: { wait } }),
    result: (taskId: string) => this.request<T.JsonObject>("GET", `/v1/convert/tasks/${enc(taskId)}/result`),
    cancel: (taskId: string) =>
      this.request<T.JsonObject | undefined>("DELETE", `/v1/convert/tasks/${enc(taskId)}`),
  };

  // ---- agents ----

  readonly agents = {
    /** `GET /v1/agents/{agentId}/skills`: every skill binding of a version (default latest) with its resolution. */
    skills: (agentId: string, query?: { version?: string }) =>
      this.request<T.AgentSkills>("GET", `/v1/agents/${enc(agentId)}/skills`, { query: { ...query } }),
    /** `GET /v1/agents/{agentId}/tool-catalogs`: the tools a run of a version could see, by catalog. */
    toolCatalogs: (agentId: string, query?: { version?: string }) =>
      this.request<T.AgentToolCatalogs>("GET", `/v1/agents/${enc(agentId)}/tool-catalogs`, {
        query: { ...query },
      }),
    list: (page?: T.PageQuery) =>
      this.request<T.Page<T.JsonObject>>("GET", "/v1/agents", { query: { ...page } }),
    catalog: () => this.request<T.JsonObject>("GET", "/v1/agents/catalog"),
    get: (agentId: string) => this.request<T.JsonObject>("GET", `/v1/agents/${enc(agentId)}`),
    create: (definition: T.JsonObject) =>
      this.request<T.JsonObject>("POST", "/v1/agents", { json: definition }),
    apply: (definition: T.JsonObject) =>
      this.request<T.JsonObject>("POST", "/v1/agents/apply", { json: definition }),
    update: (agentId: string, body: T.JsonObject) =>
      this.request<T.JsonObject>("PATCH", `/v1/agents/${enc(agentId)}`, { json: body }),
    delete: (agentId: string) => this.request<void>("DELETE", `/v1/agents/${enc(agentId)}`),
    approvals: (agentId: string) => this.request<T.JsonObject>("GET", `/v1/agents/${enc(agentId)}/approvals`),
    versions: {
      list: (agentId: string, page?: T.PageQuery) =>
        this.request<T.Page<T.JsonObject>>("GET", `/v1/agents/${enc(agentId)}/versions`, {
          query: { ...page },
        }),
      create: (agentId: string, definition: T.JsonObject) =>
        this.request<T.JsonObject>("POST", `/v1/agents/${enc(agentId)}/versions`, { json: definition }),
      latest: (agentId: string) =>
        this.request<T.JsonObject>("GET", `/v1/agents/${enc(agentId)}/versions/latest`),
      get: (agentId: string, versionId: string) =>
        this.request<T.JsonObject>("GET", `/v1/agents/${enc(agentId)}/versions/${enc(versionId)}`),
      activate: (agentId: string, versionId: string) =>
        this.request<T.JsonObject>("PUT", `/v1/agents/${enc(agentId)}/versions/${enc(versionId)}/activate`),
      deactivate: (agentId: string, versionId: string) =>
        this.request<void>("DELETE", `/v1/agents/${enc(agentId)}/versions/${enc(versionId)}`),
      policy: (
        agentId: string,
        versionId: string,
        query?: { tool?: string; mode?: string; installationId?: string },
      ) =>
        this.request<T.JsonObject>("GET", `/v1/agents/${enc(agentId)}/versions/${enc(versionId)}/policy`, {
          query: { ...query },
        }),
    },
    labels: {
      list: (agentId: string) => this.request<T.JsonObject>("GET", `/v1/agents/${enc(agentId)}/labels`),
      create: (agentId: string, body: { name: string; agentVersionId: string }) =>
        this.request<T.JsonObject>("POST", `/v1/agents/${enc(agentId)}/labels`, { json: body }),
      update: (agentId: string, labelName: string, body: { agentVersionId: string }) =>
        this.request<T.JsonObject>("PUT", `/v1/agents/${enc(agentId)}/labels/${enc(labelName)}`, {
          json: body,
        }),
      delete: (agentId: string, labelName: string) =>
        this.request<void>("DELETE", `/v1/agents/${enc(agentId)}/labels/${enc(labelName)}`),
    },
  };

  // ---- knowledge bases and files ----

  readonly knowledgeBases = {
    list: (page?: T.PageQuery) =>
      this.request<T.Page<T.JsonObject>>("GET", "/v1/knowledge-bases", { query: { ...page } }),
    create: (body: T.JsonObject) => this.request<T.JsonObject>("POST", "/v1/knowledge-bases", { json: body }),
    get: (id: string) => this.request<T.JsonObject>("GET", `/v1/knowledge-bases/${enc(id)}`),
    update: (id: string, body: T.JsonObject) =>
      this.request<T.JsonObject>("PATCH", `/v1/knowledge-bases/${enc(id)}`, { json: body }),
    delete: (id: string) => this.request<void>("DELETE", `/v1/knowledge-bases/${enc(id)}`),
    search: (id: string, body: { query: string; topK?: number; metadataFilter?: Record<string, unknown> }) =>
      this.request<T.JsonObject>("POST", `/v1/knowledge-bases/${enc(id)}/search`, { json: body }),
    citation: (id: string, chunkId: string) =>
      this.request<T.JsonObject>("GET", `/v1/knowledge-bases/${enc(id)}/citations/${enc(chunkId)}`),
    documents: {
      list: (id: string, status?: string) =>
        this.request<T.JsonObject>("GET", `/v1/knowledge-bases/${enc(id)}/documents`, { query: { status } }),
      get: (id: string, documentId: string) =>
        this.request<T.JsonObject>("GET", `/v1/knowledge-bases/${enc(id)}/documents/${enc(documentId)}`),
      delete: (id: string, documentId: string) =>
        this.request<void>("DELETE", `/v1/knowledge-bases/${enc(id)}/documents/${enc(documentId)}`),
      version: (id: string, documentId: string, versionId: string) =>
        this.request<T.JsonObject>(
          "GET",
          `/v1/knowledge-bases/${enc(id)}/documents/${enc(documentId)}/versions/${enc(versionId)}`,
        ),
      upload: (id: string, files: Array<{ file: Blob; filename: string }>) => {
        const form = new FormData();
        for (const { file, filename } of files) form.append("files", file, filename);
        return this.request<T.JsonObject[]>("POST", `/v1/knowledge-bases/${enc(id)}/documents`, { form });
      },
      attach: (id: string, fileId: string) =>
        this.request<T.JsonObject>("POST", `/v1/knowledge-bases/${enc(id)}/documents/attach`, {
          json: { fileId },
        }),
      retry: (id: string, documentId: string) =>
        this.request<T.JsonObject>(
          "POST",
          `/v1/knowledge-bases/${enc(id)}/documents/${enc(documentId)}/retry`,
        ),
    },
  };

  readonly files = {
    list: (query?: T.PageQuery & { purpose?: string }) =>
      this.request<T.Page<T.JsonObject> | T.JsonObject>("GET", "/v1/files", { query: { ...query } }),
    upload: (input: { file: Blob; filename: string; purpose: string }) => {
      const form = new FormData();
      form.set("file", input.file, input.filename);
      form.set("purpose", input.purpose);
      return this.request<T.JsonObject>("POST", "/v1/files", { form });
    },
    get: (id: string) => this.request<T.JsonObject>("GET", `/v1/files/${enc(id)}`),
    delete: (id: string) => this.request<T.JsonObject | undefined>("DELETE", `/v1/files/${enc(id)}`),
    download: (id: string) => this.request<RawBody>("GET", `/v1/files/${enc(id)}/content`, { raw: true }),
  };

  // ---- conversations (PLATFORM.md §2) ----

  readonly conversations = {
    create: (body: T.JsonObject = {}) =>
      this.request<T.JsonObject>("POST", "/v1/conversations", { json: body }),
    list: (query?: T.PageQuery & { agentId?: string; mode?: string; status?: string }) =>
      this.request<T.Page<T.JsonObject>>("GET", "/v1/conversations", { query: { ...query } }),
    get: (id: string) => this.request<T.JsonObject>("GET", `/v1/conversations/${enc(id)}`),
    summary: (id: string) => this.request<T.JsonObject>("GET", `/v1/conversations/${enc(id)}/summary`),
    update: (id: string, body: T.JsonObject) =>
      this.request<T.JsonObject>("PATCH", `/v1/conversations/${enc(id)}`, { json: body }),
    delete: (id: string) => this.request<void>("DELETE", `/v1/conversations/${enc(id)}`),
    cancel: (id: string, body: { reason?: string } = {}) =>
      this.request<T.JsonObject>("POST", `/v1/conversations/${enc(id)}/cancel`, { json: body }),
    items: (id: string, query?: T.PageQuery & { order?: "asc" | "desc"; type?: string }) =>
      this.request<T.Page<T.JsonObject>>("GET", `/v1/conversations/${enc(id)}/items`, {
        query: { ...query },
      }),
  };

  // ---- evaluators (PLATFORM.md §9): the type table and LLM-judge templates ----

  readonly evaluators = {
    types: () => this.request<T.EvaluatorTypeInfo[]>("GET", "/v1/evaluators/types"),
    /** `POST /v1/evaluators/evaluate`: cases, or outputs for dataset items (scores recorded on the items). */
    evaluate: (body: T.EvaluationBody) =>
      this.request<T.EvaluationReport>("POST", "/v1/evaluators/evaluate", { json: body }),
    templates: {
      list: (page?: T.PageQuery) =>
        this.request<T.Page<T.EvaluatorTemplate>>("GET", "/v1/evaluators/templates", { query: { ...page } }),
      get: (templateId: string) =>
        this.request<T.EvaluatorTemplate>("GET", `/v1/evaluators/templates/${enc(templateId)}`),
      create: (body: T.EvaluatorTemplateBody) =>
        this.request<T.EvaluatorTemplate>("POST", "/v1/evaluators/templates", { json: body }),
      update: (templateId: string, body: Partial<T.EvaluatorTemplateBody>) =>
        this.request<T.EvaluatorTemplate>("PATCH", `/v1/evaluators/templates/${enc(templateId)}`, {
          json: body,
        }),
      delete: (templateId: string) =>
        this.request<void>("DELETE", `/v1/evaluators/templates/${enc(templateId)}`),
    },
  };

  // ---- memory (PLATFORM.md §3): the calling key's own tree, and Admin usage and erasure ----

  /** `GET /v1/me`: the calling key, its organization, role and plan. */
  readonly me = () => this.request<T.Me>("GET", "/v1/me");

  readonly memory = {
    list: (query?: T.PageQuery & { prefix?: string }) =>
      this.request<T.Page<T.JsonObject>>("GET", "/v1/me/memory/files", { query: { ...query } }),
    read: (query: { path: string; startLine?: number; endLine?: number }) =>
      this.request<T.JsonObject>("GET", "/v1/me/memory/file", { query: { ...query } }),
    write: (command: T.MemoryWriteCommand) =>
      this.request<T.JsonObject>("POST", "/v1/me/memory/file", { json: command }),
    delete: (query: { path: string; ifMatch?: string }) =>
      this.request<void>("DELETE", "/v1/me/memory/file", { query: { ...query } }),
    forget: () => this.request<T.ErasedMemory>("DELETE", "/v1/me/memory"),
    usage: (page?: T.PageQuery) =>
      this.request<T.Page<T.JsonObject>>("GET", "/v1/memory/usage", { query: { ...page } }),
    erase: (memberId: string) =>
      this.request<T.ErasedMemory>("DELETE", `/v1/memory/members/${enc(memberId)}`),
  };

  // ---- scores (PLATFORM.md §10) ----

  readonly scores = {
    /** `POST /v1/scores`: a `HUMAN` (default) or `API` score on a subject of the organization (Member). */
    record: (body: T.ScoreRecordBody) => this.request<T.Score>("POST", "/v1/scores", { json: body }),
    /** `GET /v1/scores`: newest first; `from` inclusive, `to` exclusive (ISO 8601 instants). */
    list: (query?: T.ScoreListQuery) =>
      this.request<T.Page<T.Score>>("GET", "/v1/scores", { query: { ...query } }),
  };

  // ---- analytics (PLATFORM.md §14): every role ----

  readonly analytics = {
    /** `GET /v1/analytics/summary`: calls, errors, tokens, cost and latency percentiles of the range. */
    summary: (query?: T.AnalyticsQuery) =>
      this.request<T.AnalyticsSummary>("GET", "/v1/analytics/summary", { query: { ...query } }),
    /** `GET /v1/analytics/timeseries`: one point per UTC hour or day of the range, empty ones too. */
    timeseries: (query?: T.AnalyticsQuery) =>
      this.request<T.AnalyticsTimeseries>("GET", "/v1/analytics/timeseries", { query: { ...query } }),
    /** `GET /v1/analytics/providers`: per model prefix (`builtin` for bare names), by requests. */
    providers: (query?: T.AnalyticsQuery) =>
      this.request<T.AnalyticsProviders>("GET", "/v1/analytics/providers", { query: { ...query } }),
    /** `GET /v1/analytics/errors`: failed calls by the code and status the caller received. */
    errors: (query?: T.AnalyticsQuery) =>
      this.request<T.AnalyticsErrors>("GET", "/v1/analytics/errors", { query: { ...query } }),
    /** `GET /v1/analytics/schemas`: extractions and their quality per schema. */
    schemas: (query?: T.ExtractionAnalyticsQuery) =>
      this.request<T.AnalyticsSchemas>("GET", "/v1/analytics/schemas", { query: { ...query } }),
    /** `GET /v1/analytics/quality`: extraction quality and human score means. */
    quality: (query?: T.ExtractionAnalyticsQuery) =>
      this.request<T.AnalyticsQuality>("GET", "/v1/analytics/quality", { query: { ...query } }),
    /** `GET /v1/analytics/quality/trend`: extraction quality per bucket, with one human score mean. */
    qualityTrend: (query?: T.ExtractionAnalyticsQuery & { scoreName?: string }) =>
      this.request<T.AnalyticsQualityTrend>("GET", "/v1/analytics/quality/trend", { query: { ...query } }),
  };

  // ---- tracing (PLATFORM.md §13): settings, traces with their span trees, sessions ----

  readonly tracing = {
    /** `GET /v1/tracing/settings` (export headers shown only by name). */
    getSettings: () => this.request<T.TracingSettings>("GET", "/v1/tracing/settings"),
    /** `PUT /v1/tracing/settings` (Admin); `export` replaces the export, headers included. */
    updateSettings: (body: T.TracingSettingsBody) =>
      this.request<T.TracingSettings>("PUT", "/v1/tracing/settings", { json: body }),
    /** `GET /v1/traces`: newest first; by default the last 24 h, at most 31 days. */
    listTraces: (query?: T.TraceListQuery) =>
      this.request<T.Page<T.Trace>>("GET", "/v1/traces", { query: { ...query } }),
    /** `GET /v1/traces/{traceId}`: the trace with its span tree. */
    getTrace: (traceId: string) => this.request<T.TraceDetail>("GET", `/v1/traces/${enc(traceId)}`),
    /** `GET /v1/trace-sessions`: by last trace, newest first. */
    listSessions: (query?: T.TraceSessionListQuery) =>
      this.request<T.Page<T.TraceSession>>("GET", "/v1/trace-sessions", { query: { ...query } }),
    /** `GET /v1/trace-sessions/{sessionId}`: the session with its traces, oldest first (≤ 100). */
    getSession: (sessionId: string) =>
      this.request<T.TraceSessionDetail>("GET", `/v1/trace-sessions/${enc(sessionId)}`),
  };

  // ---- datasets (PLATFORM.md §8): items, batch adds and frozen versions ----

  readonly datasets = {
    list: (query?: T.PageQuery & { name?: string }) =>
      this.request<T.Page<T.Dataset>>("GET", "/v1/datasets", { query: { ...query } }),
    get: (datasetId: string) => this.request<T.Dataset>("GET", `/v1/datasets/${enc(datasetId)}`),
    create: (body: T.DatasetBody) => this.request<T.Dataset>("POST", "/v1/datasets", { json: body }),
    update: (datasetId: string, body: Partial<T.DatasetBody>) =>
      this.request<T.Dataset>("PATCH", `/v1/datasets/${enc(datasetId)}`, { json: body }),
    delete: (datasetId: string) => this.request<void>("DELETE", `/v1/datasets/${enc(datasetId)}`),
    versions: {
      list: (datasetId: string, page?: T.PageQuery) =>
        this.request<T.Page<T.DatasetVersion>>("GET", `/v1/datasets/${enc(datasetId)}/versions`, {
          query: { ...page },
        }),
      /** `version` is a version id (`dsv_…`) or number. */
      get: (datasetId: string, version: string | number) =>
        this.request<T.DatasetVersion>(
          "GET",
          `/v1/datasets/${enc(datasetId)}/versions/${enc(String(version))}`,
        ),
      create: (datasetId: string, body: { description?: string | null } = {}) =>
        this.request<T.DatasetVersion>("POST", `/v1/datasets/${enc(datasetId)}/versions`, { json: body }),
    },
    items: {
      /** The current items, or with `version` (id or number) those frozen in that version; oldest first. */
      list: (datasetId: string, query?: T.PageQuery & { version?: string | number }) =>
        this.request<T.Page<T.DatasetItem>>("GET", `/v1/datasets/${enc(datasetId)}/items`, {
          query: { ...query },
        }),
      add: (datasetId: string, item: T.DatasetItemBody) =>
        this.request<T.DatasetItem>("POST", `/v1/datasets/${enc(datasetId)}/items`, { json: item }),
      addBatch: (datasetId: string, items: T.DatasetItemBody[]) =>
        this.request<{ count: number; items: T.DatasetItem[] }>(
          "POST",
          `/v1/datasets/${enc(datasetId)}/items/batch`,
          { json: { items } },
        ),
      update: (
        datasetId: string,
        itemId: string,
        body: { expectedOutput?: unknown; metadata?: T.JsonObject },
      ) =>
        this.request<T.DatasetItem>("PATCH", `/v1/datasets/${enc(datasetId)}/items/${enc(itemId)}`, {
          json: body,
        }),
      delete: (datasetId: string, itemId: string) =>
        this.request<void>("DELETE", `/v1/datasets/${enc(datasetId)}/items/${enc(itemId)}`),
    },
  };

  // ---- annotation queues (PLATFORM.md §12): claims lock an item to the calling key ----

  readonly annotationQueues = {
    /** `status`: `ACTIVE` (default), `ARCHIVED` or `all`; newest first. */
    list: (query?: T.PageQuery & { status?: "ACTIVE" | "ARCHIVED" | "all" }) =>
      this.request<T.Page<T.AnnotationQueue>>("GET", "/v1/annotation-queues", { query: { ...query } }),
    create: (body: T.AnnotationQueueBody) =>
      this.request<T.AnnotationQueue>("POST", "/v1/annotation-queues", { json: body }),
    get: (queueId: string) => this.request<T.AnnotationQueue>("GET", `/v1/annotation-queues/${enc(queueId)}`),
    update: (queueId: string, body: Partial<T.AnnotationQueueBody>) =>
      this.request<T.AnnotationQueue>("PATCH", `/v1/annotation-queues/${enc(queueId)}`, { json: body }),
    /** Archives the queue and releases its locks (idempotent); an archived queue refuses writes. */
    archive: (queueId: string) =>
      this.request<T.AnnotationQueue>("POST", `/v1/annotation-queues/${enc(queueId)}/archive`),
    /** `GET /v1/annotation-queue-items`: the items on one subject across queues, newest first. */
    findItems: (query: T.QueueSubject & T.PageQuery & { status?: T.QueueItemStatus }) =>
      this.request<T.Page<T.QueueItem>>("GET", "/v1/annotation-queue-items", { query: { ...query } }),
    items: {
      /** Oldest first. */
      list: (queueId: string, query?: T.PageQuery & { status?: T.QueueItemStatus }) =>
        this.request<T.Page<T.QueueItem>>("GET", `/v1/annotation-queues/${enc(queueId)}/items`, {
          query: { ...query },
        }),
      /** 1–500 subjects; those already PENDING in the queue are counted as `skipped`. */
      add: (queueId: string, items: T.QueueSubject[]) =>
        this.request<{ added: T.QueueItem[]; skipped: number }>(
          "POST",
          `/v1/annotation-queues/${enc(queueId)}/items`,
          { json: { items } },
        ),
      /** The caller's own lock (renewed) or the oldest free PENDING item, locked to the caller; null when none. */
      claim: async (queueId: string): Promise<T.QueueItem | null> =>
        (await this.request<T.QueueItem | undefined>(
          "POST",
          `/v1/annotation-queues/${enc(queueId)}/items/claim`,
        )) ?? null,
      get: (queueId: string, itemId: string) =>
        this.request<T.QueueItem>("GET", `/v1/annotation-queues/${enc(queueId)}/items/${enc(itemId)}`),
      update: (queueId: string, itemId: string, body: T.QueueItemUpdateBody) =>
        this.request<T.QueueItem>("PATCH", `/v1/annotation-queues/${enc(queueId)}/items/${enc(itemId)}`, {
          json: body,
        }),
    },
  };

  // ---- experiments (PLATFORM.md §11): variants, durable runs, baseline, regression, comparison ----

  readonly experiments = {
    list: (query?: T.PageQuery & { datasetId?: string }) =>
      this.request<T.Page<T.Experiment>>("GET", "/v1/experiments", { query: { ...query } }),
    /** The experiment with its variants. */
    get: (experimentId: string) => this.request<T.Experiment>("GET", `/v1/experiments/${enc(experimentId)}`),
    create: (body: T.ExperimentBody) => this.request<T.Experiment>("POST", "/v1/experiments", { json: body }),
    update: (experimentId: string, body: Partial<Omit<T.ExperimentBody, "datasetId">>) =>
      this.request<T.Experiment>("PATCH", `/v1/experiments/${enc(experimentId)}`, { json: body }),
    delete: (experimentId: string) => this.request<void>("DELETE", `/v1/experiments/${enc(experimentId)}`),
    variants: {
      add: (experimentId: string, body: T.ExperimentVariantBody) =>
        this.request<T.ExperimentVariant>("POST", `/v1/experiments/${enc(experimentId)}/variants`, {
          json: body,
        }),
      list: (experimentId: string) =>
        this.request<T.ExperimentVariant[]>("GET", `/v1/experiments/${enc(experimentId)}/variants`),
      update: (experimentId: string, variantId: string, body: T.JsonObject) =>
        this.request<T.ExperimentVariant>(
          "PATCH",
          `/v1/experiments/${enc(experimentId)}/variants/${enc(variantId)}`,
          { json: body },
        ),
      delete: (experimentId: string, variantId: string) =>
        this.request<void>("DELETE", `/v1/experiments/${enc(experimentId)}/variants/${enc(variantId)}`),
    },
    runs: {
      /** Queues one run per variant (default all); answers 202 `{runs}`. */
      start: (experimentId: string, body: { variantIds?: string[] } = {}) =>
        this.request<{ runs: T.ExperimentRun[] }>("POST", `/v1/experiments/${enc(experimentId)}/runs`, {
          json: body,
        }),
      list: (
        experimentId: string,
        query?: T.PageQuery & { variantId?: string; status?: T.ExperimentRunStatus },
      ) =>
        this.request<T.Page<T.ExperimentRun>>("GET", `/v1/experiments/${enc(experimentId)}/runs`, {
          query: { ...query },
        }),
      get: (experimentId: string, runId: string) =>
        this.request<T.ExperimentRun>("GET", `/v1/experiments/${enc(experimentId)}/runs/${enc(runId)}`),
      cancel: (experimentId: string, runId: string) =>
        this.request<T.ExperimentRun>(
          "POST",
          `/v1/experiments/${enc(experimentId)}/runs/${enc(runId)}/cancel`,
        ),
      /** In dataset order. */
      results: (
        experimentId: string,
        runId: string,
        query?: T.PageQuery & { status?: "completed" | "failed" },
      ) =>
        this.request<T.Page<T.RunResult>>(
          "GET",
          `/v1/experiments/${enc(experimentId)}/runs/${enc(runId)}/results`,
          { query: { ...query } },
        ),
      regression: (
        experimentId: string,
        runId: string,
        query?: { baselineRunId?: string; threshold?: number },
      ) =>
        this.request<T.RunRegression>(
          "GET",
          `/v1/experiments/${enc(experimentId)}/runs/${enc(runId)}/regression`,
          { query: { ...query } },
        ),
    },
    setBaseline: (experimentId: string, runId: string) =>
      this.request<T.Experiment>("PUT", `/v1/experiments/${enc(experimentId)}/baseline`, { json: { runId } }),
    clearBaseline: (experimentId: string) =>
      this.request<void>("DELETE", `/v1/experiments/${enc(experimentId)}/baseline`),
    /** `runIds`: 2–10 runs (default the newest completed run of each variant). */
    comparison: (experimentId: string, query?: { runIds?: string[]; threshold?: number }) =>
      this.request<T.ExperimentComparison>("GET", `/v1/experiments/${enc(experimentId)}/comparison`, {
        query: {
          ...(query?.runIds === undefined ? {} : { runIds: query.runIds.join(",") }),
          ...(query?.threshold === undefined ? {} : { threshold: query.threshold }),
        },
      }),
  };

  // ---- prompts (PLATFORM.md §7): `prompt` is an id (prm_…) or a name; `version` an id or a number ----

  readonly prompts = {
    list: (query?: T.PageQuery & { name?: string; tag?: string; type?: T.PromptType; label?: string }) =>
      this.request<T.Page<T.JsonObject>>("GET", "/v1/prompts", { query: { ...query } }),
    create: (body: T.PromptCreateBody) => this.request<T.JsonObject>("POST", "/v1/prompts", { json: body }),
    get: (prompt: string) => this.request<T.JsonObject>("GET", `/v1/prompts/${enc(prompt)}`),
    update: (prompt: string, body: { name?: string; description?: string | null; tags?: string[] }) =>
      this.request<T.JsonObject>("PATCH", `/v1/prompts/${enc(prompt)}`, { json: body }),
    delete: (prompt: string) => this.request<void>("DELETE", `/v1/prompts/${enc(prompt)}`),
    resolve: (prompt: string, query?: { label?: string; version?: number }) =>
      this.request<T.JsonObject>("GET", `/v1/prompts/${enc(prompt)}/resolve`, { query: { ...query } }),
    compile: (prompt: string, body: T.PromptCompileBody = {}) =>
      this.request<T.JsonObject>("POST", `/v1/prompts/${enc(prompt)}/compile`, { json: body }),
    test: (prompt: string, body: T.PromptTestBody = {}) =>
      this.request<T.JsonObject>("POST", `/v1/prompts/${enc(prompt)}/test`, { json: body }),
    versions: {
      list: (prompt: string, page?: T.PageQuery) =>
        this.request<T.Page<T.JsonObject>>("GET", `/v1/prompts/${enc(prompt)}/versions`, {
          query: { ...page },
        }),
      create: (prompt: string, body: T.PromptVersionBody) =>
        this.request<T.JsonObject>("POST", `/v1/prompts/${enc(prompt)}/versions`, { json: body }),
      latest: (prompt: string) =>
        this.request<T.JsonObject>("GET", `/v1/prompts/${enc(prompt)}/versions/latest`),
      get: (prompt: string, version: string | number) =>
        this.request<T.JsonObject>("GET", `/v1/prompts/${enc(prompt)}/versions/${enc(String(version))}`),
      activate: (prompt: string, version: string | number) =>
        this.request<T.JsonObject>(
          "PUT",
          `/v1/prompts/${enc(prompt)}/versions/${enc(String(version))}/activate`,
        ),
      deactivate: (prompt: string, version: string | number) =>
        this.request<void>("DELETE", `/v1/prompts/${enc(prompt)}/versions/${enc(String(version))}`),
    },
    labels: {
      list: (prompt: string) => this.request<T.JsonObject[]>("GET", `/v1/prompts/${enc(prompt)}/labels`),
      create: (prompt: string, body: { name: string; promptVersionId: string }) =>
        this.request<T.JsonObject>("POST", `/v1/prompts/${enc(prompt)}/labels`, { json: body }),
      update: (prompt: string, name: string, body: { promptVersionId: string }) =>
        this.request<T.JsonObject>("PUT", `/v1/prompts/${enc(prompt)}/labels/${enc(name)}`, { json: body }),
      delete: (prompt: string, name: string) =>
        this.request<void>("DELETE", `/v1/prompts/${enc(prompt)}/labels/${enc(name)}`),
    },
  };

  // ---- skills (PLATFORM.md §4); `skill` is a skill id or its qualified name ----

  readonly skills = {
    list: (query?: T.PageQuery & { namespace?: string; q?: string }) =>
      this.request<T.Page<T.JsonObject>>("GET", "/v1/skills", { query: { ...query } }),
    get: (skill: string) => this.request<T.JsonObject>("GET", `/v1/skills/${enc(skill)}`),
    /** Imports a file map (JSON) or a zip (multipart `file`). */
    import: (input: T.SkillImportInput) => {
      if ("files" in input) {
        return this.request<T.SkillImportResult>("POST", "/v1/skills/import", { json: input });
      }
      const form = new FormData();
      form.set("file", input.zip, input.filename ?? "skill.zip");
      if (input.changeDescription != null) form.set("changeDescription", input.changeDescription);
      return this.request<T.SkillImportResult>("POST", "/v1/skills/import", { form });
    },
    resolve: (query: { name: string; ref?: string }) =>
      this.request<T.ResolvedSkill>("GET", "/v1/skills/resolve", { query: { ...query } }),
    delete: (skill: string) => this.request<void>("DELETE", `/v1/skills/${enc(skill)}`),
    versions: {
      list: (skill: string, page?: T.PageQuery) =>
        this.request<T.Page<T.JsonObject>>("GET", `/v1/skills/${enc(skill)}/versions`, {
          query: { ...page },
        }),
      latest: (skill: string) =>
        this.request<T.JsonObject>("GET", `/v1/skills/${enc(skill)}/versions/latest`),
      get: (skill: string, versionId: string | number) =>
        this.request<T.JsonObject>("GET", `/v1/skills/${enc(skill)}/versions/${enc(String(versionId))}`),
      /** A file's raw bytes (`path` relative to the package root). */
      file: (skill: string, versionId: string | number, path: string) =>
        this.request<RawBody>(
          "GET",
          `/v1/skills/${enc(skill)}/versions/${enc(String(versionId))}/files/${enc(path)}`,
          { raw: true },
        ),
      activate: (skill: string, versionId: string | number) =>
        this.request<T.JsonObject>(
          "PUT",
          `/v1/skills/${enc(skill)}/versions/${enc(String(versionId))}/activate`,
        ),
      deactivate: (skill: string, versionId: string | number) =>
        this.request<void>("DELETE", `/v1/skills/${enc(skill)}/versions/${enc(String(versionId))}`),
    },
    labels: {
      list: (skill: string) => this.request<T.JsonObject[]>("GET", `/v1/skills/${enc(skill)}/labels`),
      create: (skill: string, body: { name: string; skillVersionId: string | number }) =>
        this.request<T.JsonObject>("POST", `/v1/skills/${enc(skill)}/labels`, { json: body }),
      move: (skill: string, name: string, body: { skillVersionId: string | number }) =>
        this.request<T.JsonObject>("PUT", `/v1/skills/${enc(skill)}/labels/${enc(name)}`, { json: body }),
      delete: (skill: string, name: string) =>
        this.request<void>("DELETE", `/v1/skills/${enc(skill)}/labels/${enc(name)}`),
    },
  };

  // ---- plugins (PLATFORM.md §5.2): Viewers read, Admins install, update, sync, delete ----

  readonly plugins = {
    list: (page?: T.PageQuery) =>
      this.request<T.Page<T.Plugin>>("GET", "/v1/plugins", { query: { ...page } }),
    get: (pluginId: string) => this.request<T.Plugin>("GET", `/v1/plugins/${enc(pluginId)}`),
    /** Installs a zip (multipart `file`) or the zip at `sourceUrl`. */
    install: (input: T.PluginSourceInput) => this.pluginRequest("POST", "/v1/plugins", input),
    /** Replaces the plugin's package (the manifest name must stay the same). */
    update: (pluginId: string, input: T.PluginSourceInput) =>
      this.pluginRequest("PUT", `/v1/plugins/${enc(pluginId)}`, input),
    /** Re-fetches the plugin's `source.url` and applies it as an update. */
    sync: (pluginId: string) => this.request<T.PluginResult>("POST", `/v1/plugins/${enc(pluginId)}/sync`),
    /** `force` removes it even while agents outside it bind its skills (they become unresolved). */
    delete: (pluginId: string, query?: { force?: boolean }) =>
      this.request<void>("DELETE", `/v1/plugins/${enc(pluginId)}`, {
        query: query?.force === undefined ? {} : { force: String(query.force) },
      }),
  };

  private pluginRequest(method: "POST" | "PUT", path: string, input: T.PluginSourceInput) {
    if ("sourceUrl" in input) {
      return this.request<T.PluginResult>(method, path, { json: { sourceUrl: input.sourceUrl } });
    }
    const form = new FormData();
    form.set("file", input.zip, input.filename ?? "plugin.zip");
    return this.request<T.PluginResult>(method, path, { form });
  }

  // ---- connectors (PLATFORM.md §5.3): registration (Admin), own connection and allowances, questions ----

  readonly connectors = {
    list: (page?: T.PageQuery) =>
      this.request<T.Page<T.JsonObject>>("GET", "/v1/connectors", { query: { ...page } }),
    create: (body: T.ConnectorCreate) => this.request<T.JsonObject>("POST", "/v1/connectors", { json: body }),
    get: (connectorId: string) => this.request<T.JsonObject>("GET", `/v1/connectors/${enc(connectorId)}`),
    update: (connectorId: string, body: T.ConnectorUpdate) =>
      this.request<T.JsonObject>("PATCH", `/v1/connectors/${enc(connectorId)}`, { json: body }),
    delete: (connectorId: string) => this.request<void>("DELETE", `/v1/connectors/${enc(connectorId)}`),
    connection: (connectorId: string) =>
      this.request<T.JsonObject>("GET", `/v1/connectors/${enc(connectorId)}/connection`),
    connect: (connectorId: string, token: string) =>
      this.request<T.JsonObject>("PUT", `/v1/connectors/${enc(connectorId)}/connection`, { json: { token } }),
    disconnect: (connectorId: string) =>
      this.request<void>("DELETE", `/v1/connectors/${enc(connectorId)}/connection`),
    allow: (connectorId: string, agentId: string, body: { destinations?: string[] } = {}) =>
      this.request<T.JsonObject>("PUT", `/v1/connectors/${enc(connectorId)}/allowances/${enc(agentId)}`, {
        json: body,
      }),
    disallow: (connectorId: string, agentId: string) =>
      this.request<void>("DELETE", `/v1/connectors/${enc(connectorId)}/allowances/${enc(agentId)}`),
  };

  readonly connectorInputs = {
    get: (inputRequestId: string) =>
      this.request<T.JsonObject>("GET", `/v1/connector-inputs/${enc(inputRequestId)}`),
    answer: (inputRequestId: string, body: T.ConnectorInputAnswer) =>
      this.request<T.JsonObject>("POST", `/v1/connector-inputs/${enc(inputRequestId)}/answer`, {
        json: body,
      }),
  };

  // ---- billing (PLATFORM.md §15; every role) ----

  readonly billing = {
    /** `GET /v1/billing/tier`: the caller's plan, its limits and the current UTC month. */
    tier: () => this.request<T.BillingTierView>("GET", "/v1/billing/tier"),
    /** `GET /v1/billing/tiers`: every tier in plan order. */
    tiers: () => this.request<T.BillingTier[]>("GET", "/v1/billing/tiers"),
    /** `GET /v1/billing/limits`: each resource's limit, counter, remainder and reset. */
    limits: () =>
      this.request<{ plan: T.BillingTier["plan"]; limits: T.BillingLimit[] }>("GET", "/v1/billing/limits"),
    /** `GET /v1/billing/available?resource=`: something remains, it is unlimited, or the feature is included. */
    available: (resource: T.BillingResource) =>
      this.request<{ resource: T.BillingResource; available: boolean }>("GET", "/v1/billing/available", {
        query: { resource },
      }),
    /** `POST /v1/billing/check`: whether `amount` (default 1) more fits. */
    check: (body: { resource: T.BillingResource; amount?: number }) =>
      this.request<T.BillingCheck>("POST", "/v1/billing/check", { json: body }),
  };
}

function sig(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}

function convertForm(input: T.ConvertFileInput): FormData {
  const form = new FormData();
  for (const { file, filename } of input.files) form.append("files", file, filename);
  if (input.options !== undefined) {
    form.set("options", new Blob([JSON.stringify(input.options)], { type: "application/json" }));
  }
  return form;
}

async function toError(response: Response, method: string, path: string): Promise<GroundworkError> {
  const text = await response.text();
  let envelope: { error?: { message?: unknown; type?: unknown; code?: unknown; param?: unknown } } = {};
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    // A bare status (e.g. the 401 without credentials) has no envelope.
  }
  const error = envelope.error ?? {};
  const message =
    typeof error.message === "string"
      ? error.message
      : `${method} ${path} answered ${response.status} ${response.statusText}`.trim();
  const retryAfter = Number(response.headers.get("retry-after"));
  return new GroundworkError(message, {
    status: response.status,
    type: (typeof error.type === "string" ? error.type : "api_error") as ErrorType,
    code: typeof error.code === "string" ? error.code : `http_${response.status}`,
    param: typeof error.param === "string" ? error.param : null,
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfter } : {}),
  });
}
