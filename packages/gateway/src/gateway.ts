/**
 * The model gateway: routes a `model` string to the built-in upstream, the
 * in-process embedding model or the organization's own provider, enforces the
 * plan, the image rules and the BYOK concurrency limit, and meters every call.
 * Pure engine: providers, usage storage, clock and fetch are injected (ports.ts).
 * This file composes the public calls; routing to an adapter is in
 * target-resolver.ts, usage recording and the allowance check in usage-metering.ts,
 * what a body goes through before routing in chat-preparation.ts.
 */
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  type Clock,
  estimateTokens,
  invalidRequest,
  type MaybePromise,
  type Principal,
  systemClock,
  type UsageEvent,
} from "@groundwork/core";
import type { ProviderAdapter, TranscriptionRequest, TranscriptionResult } from "./adapter.js";
import { cancellationOf, signalOf } from "./call-options.js";
import { type PreparedChat, prepareChat, prepareResponses } from "./chat-preparation.js";
import type { ChatRequestBody } from "./chat-request.js";
import { type EmbeddingsBody, encodeEmbedding } from "./embeddings-request.js";
import { completionMessages, GatewayTracing } from "./gateway-tracing.js";
import { HASH_EMBEDDING_DIMENSIONS, HASH_EMBEDDING_MODEL, hashEmbedding } from "./hash-embedding.js";
import { parseModelString } from "./model-string.js";
import type { CallContext, GatewayOptions, ProviderAccount } from "./ports.js";
import { BUILTIN_EMBEDDING_PRICES } from "./pricing.js";
import { MODEL_PREFIXES, PROVIDER_KINDS } from "./provider-kinds.js";
import {
  type ResponseObject,
  type ResponseStreamEvent,
  responseEventsFromChat,
  responseFromChat,
} from "./responses/responses-from-chat.js";
import type { ResponsesRequestBody } from "./responses/responses-request.js";
import { TargetResolver } from "./target-resolver.js";
import { withSafeRetry } from "./upstream-errors.js";
import { completionJson, forgetUpstreamText } from "./upstream-text.js";
import { estimateRequestTokens, outcomeOf, UsageMetering } from "./usage-metering.js";

export interface EmbeddingsResult {
  object: "list";
  data: Array<{ object: "embedding"; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

export interface ModelEntry {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
}

export const BUILTIN_EMBEDDING_MODELS = ["text-embedding-3-small", "text-embedding-3-large"] as const;

/** What a call is recorded under: the model string as sent and the end user. */
interface CallLabels {
  model: string;
  endUser: string | undefined;
}

export class Gateway {
  private readonly clock: Clock;
  private readonly metering: UsageMetering;
  private readonly targets: TargetResolver;
  private readonly tracing: GatewayTracing;

  constructor(private readonly options: GatewayOptions) {
    this.clock = options.clock ?? systemClock;
    this.tracing = new GatewayTracing(options.traceHooks);
    this.metering = new UsageMetering(options);
    this.targets = new TargetResolver(options);
  }

  /** Current BYOK calls in flight for an organization (for tests and metrics). */
  byokInFlight(organizationId: string): MaybePromise<number> {
    return this.targets.inFlight(organizationId);
  }

  // ---- chat ----

  async chat(body: ChatRequestBody, context: CallContext): Promise<ChatCompletion> {
    const prepared = prepareChat(body, context.principal);
    return this.completeRouted(prepared, { model: body.model, endUser: body.user }, context);
  }

  /**
   * {@link chat}, answered as the JSON text the client receives: the upstream's own bytes when the
   * gateway changed nothing in them (the same model name, no cache details to drop), so a body that
   * only passes through is not serialised a second time.
   */
  async chatJson(body: ChatRequestBody, context: CallContext): Promise<string> {
    return completionJson(await this.chat(body, context));
  }

  /** Starts a chat call's span and resolves its target (a refused target ends the span failed). */
  private async openChatCall(prepared: PreparedChat, labels: CallLabels, context: CallContext) {
    const organizationId = context.principal.organizationId;
    const span = this.tracing.start("chat", labels.model, organizationId, context.requestId);
    let target: Awaited<ReturnType<TargetResolver["resolve"]>>;
    try {
      target = await this.targets.resolve(prepared.route, context.principal, "chat");
    } catch (error) {
      this.tracing.fail(span, error);
      throw error;
    }
    this.tracing.request(span, prepared.route, organizationId, prepared.request.messages);
    return { span, target, organizationId };
  }

  /** One non-streamed call on a prepared request: routing, limits, metering (chat and responses alike). */
  private async completeRouted(
    prepared: PreparedChat,
    labels: CallLabels,
    context: CallContext,
  ): Promise<ChatCompletion> {
    const started = performance.now();
    const { request, surface, cacheKeySent } = prepared;
    const { span, target, organizationId } = await this.openChatCall(prepared, labels, context);
    let outcome: UsageEvent["outcome"] = "error";
    let failure: unknown;
    let completion: ChatCompletion | undefined;
    let responseModel: string | undefined;
    try {
      completion = await withSafeRetry(
        () => target.adapter.complete(request, signalOf(context)),
        cancellationOf(context),
      );
      outcome = "ok";
      responseModel = completion.model;
      const cacheDetails =
        !target.byok && !cacheKeySent && completion.usage?.prompt_tokens_details !== undefined;
      // Unchanged, the upstream's own bytes can be the answer (upstream-text.ts); changed, they cannot.
      if (completion.model !== labels.model || cacheDetails) {
        forgetUpstreamText(completion);
        completion.model = labels.model;
        if (cacheDetails) delete completion.usage?.prompt_tokens_details;
      }
      return completion;
    } catch (error) {
      failure = error;
      if (cancellationOf(context)?.aborted === true) outcome = "aborted";
      throw error;
    } finally {
      target.release();
      const tokens = {
        promptTokens: completion?.usage?.prompt_tokens ?? estimateRequestTokens(request),
        completionTokens: completion?.usage?.completion_tokens ?? 0,
        cachedTokens: completion?.usage?.prompt_tokens_details?.cached_tokens ?? null,
      };
      const cost = await this.metering.record(
        context,
        {
          model: labels.model,
          surface,
          byok: target.byok,
          started,
          outcome,
          endUser: labels.endUser,
          failure,
        },
        tokens,
      );
      const usage = {
        inputTokens: tokens.promptTokens,
        outputTokens: tokens.completionTokens,
        costEur: cost,
      };
      if (completion === undefined) this.tracing.fail(span, failure, usage);
      else {
        const answered = completion;
        // Named one by one: on Node 20 `{ ...usage, more }` cost a few µs per call (HP59).
        this.tracing.finish(span, organizationId, {
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          costEur: usage.costEur,
          responseModel,
          output: () => completionMessages(answered),
        });
      }
    }
  }

  /**
   * Opens a streamed chat completion. Routing, plan, limits and the upstream's
   * own refusal all surface here, before the first byte, so the HTTP layer can
   * still answer with a status; errors after that end the stream.
   */
  async openChatStream(
    body: ChatRequestBody,
    context: CallContext,
  ): Promise<AsyncIterable<ChatCompletionChunk>> {
    const prepared = prepareChat(body, context.principal);
    const labels = { model: body.model, endUser: body.user };
    return this.openRoutedStream(prepared, labels, body.stream_options?.include_usage === true, context);
  }

  /** Opens a stream on a prepared request (chat and responses alike); see {@link openChatStream}. */
  private async openRoutedStream(
    prepared: PreparedChat,
    labels: CallLabels,
    includeUsage: boolean,
    context: CallContext,
  ): Promise<AsyncIterable<ChatCompletionChunk>> {
    const started = performance.now();
    const { request, surface, cacheKeySent } = prepared;
    const { span, target, organizationId } = await this.openChatCall(prepared, labels, context);
    let iterator: AsyncIterator<ChatCompletionChunk>;
    let first: IteratorResult<ChatCompletionChunk>;
    try {
      // Only opening the stream is retried: nothing has reached the client yet.
      ({ iterator, first } = await withSafeRetry(async () => {
        const opened = target.adapter.stream(request, signalOf(context))[Symbol.asyncIterator]();
        return { iterator: opened, first: await opened.next() };
      }, cancellationOf(context)));
    } catch (error) {
      target.release();
      const call = {
        model: labels.model,
        surface,
        byok: target.byok,
        started,
        outcome: outcomeOf(context),
        endUser: labels.endUser,
        failure: error,
      };
      const promptTokens = estimateRequestTokens(request);
      const cost = await this.metering.record(context, call, {
        promptTokens,
        completionTokens: 0,
        cachedTokens: null,
      });
      this.tracing.fail(span, error, { inputTokens: promptTokens, outputTokens: 0, costEur: cost });
      throw error;
    }
    const self = this;
    return (async function* relay() {
      let usage: ChatCompletion["usage"] | undefined;
      let outcome: UsageEvent["outcome"] = "error";
      let failure: unknown;
      let completionChars = 0;
      let responseModel: string | undefined;
      // The streamed text, kept only for a span that captures content.
      const captured: string[] | null =
        span.isRecording() && self.options.traceHooks?.captureContent(organizationId) === true ? [] : null;
      try {
        let next = first;
        while (next.done !== true) {
          const chunk = next.value;
          responseModel ??= chunk.model;
          // Any change to the chunk drops the upstream's text of it (the client then gets it serialised).
          if (chunk.model !== labels.model) {
            forgetUpstreamText(chunk);
            chunk.model = labels.model;
          }
          for (const choice of chunk.choices) {
            const content = choice.delta.content;
            if (content != null) {
              completionChars += content.length;
              captured?.push(content);
            }
          }
          if (chunk.usage != null) {
            usage = chunk.usage;
            if (!target.byok && !cacheKeySent && chunk.usage.prompt_tokens_details !== undefined) {
              forgetUpstreamText(chunk);
              delete chunk.usage.prompt_tokens_details;
            }
          }
          const usageOnly = chunk.choices.length === 0 && chunk.usage != null;
          if (!usageOnly || includeUsage) {
            if (!includeUsage && "usage" in chunk) {
              forgetUpstreamText(chunk);
              delete chunk.usage;
            }
            yield chunk;
          }
          next = await iterator.next();
        }
        outcome = "ok";
      } catch (error) {
        failure = error;
        outcome = outcomeOf(context);
        throw error;
      } finally {
        target.release();
        // A client that stops reading ends the generator early: tell the upstream.
        await iterator.return?.();
        const tokens = {
          promptTokens: usage?.prompt_tokens ?? estimateRequestTokens(request),
          completionTokens: usage?.completion_tokens ?? Math.ceil(completionChars / 4),
          cachedTokens: usage?.prompt_tokens_details?.cached_tokens ?? null,
        };
        const cost = await self.metering.record(
          context,
          {
            model: labels.model,
            surface,
            byok: target.byok,
            started,
            outcome,
            endUser: labels.endUser,
            failure,
          },
          tokens,
        );
        const spanUsage = {
          inputTokens: tokens.promptTokens,
          outputTokens: tokens.completionTokens,
          costEur: cost,
        };
        // A client that stopped reading is no failure of the call.
        if (failure !== undefined) self.tracing.fail(span, failure, spanUsage);
        else {
          self.tracing.finish(span, organizationId, {
            inputTokens: spanUsage.inputTokens,
            outputTokens: spanUsage.outputTokens,
            costEur: spanUsage.costEur,
            responseModel,
            output: () => [{ role: "assistant", content: captured?.join("") ?? "" }],
          });
        }
      }
    })();
  }

  // ---- responses (direct calls) ----

  /**
   * `POST /v1/responses` with `<prefix>/<model>` or a built-in name: the body is
   * translated to a chat request and runs exactly like chat (plan, provider,
   * limits, metering under RESPONSES), on every provider kind.
   */
  async responses(body: ResponsesRequestBody, context: CallContext): Promise<ResponseObject> {
    const prepared = prepareResponses(body, context.principal);
    const completion = await this.completeRouted(
      prepared,
      { model: body.model, endUser: body.user },
      context,
    );
    return responseFromChat(completion, body, { createdAt: Math.floor(this.clock.now() / 1000) });
  }

  /**
   * The streamed form: the protocol's typed events, ending with `response.completed`
   * (or `response.incomplete`). Errors before the first event surface here, as for chat.
   */
  async openResponsesStream(
    body: ResponsesRequestBody,
    context: CallContext,
  ): Promise<AsyncIterable<ResponseStreamEvent>> {
    const prepared = prepareResponses(body, context.principal);
    // Usage is kept in the chunks: the closing event carries it.
    const chunks = await this.openRoutedStream(
      prepared,
      { model: body.model, endUser: body.user },
      true,
      context,
    );
    return responseEventsFromChat(chunks, body, { createdAt: Math.floor(this.clock.now() / 1000) });
  }

  // ---- embeddings ----

  async embeddings(body: EmbeddingsBody, context: CallContext): Promise<EmbeddingsResult> {
    const started = performance.now();
    const route = parseModelString(body.model);
    if (route.kind === "builtin") {
      if (route.model === HASH_EMBEDDING_MODEL) return this.hashEmbeddings(body, context, started);
      if (!(BUILTIN_EMBEDDING_MODELS as readonly string[]).includes(route.model)) {
        throw invalidRequest(
          `"${route.model}" is not a built-in embedding model (available: ${[...BUILTIN_EMBEDDING_MODELS, HASH_EMBEDDING_MODEL].join(", ")}); use <prefix>/<model> for your own provider`,
          { param: "model", code: "model_not_found" },
        );
      }
    } else if (!route.provider.embeddings) {
      throw invalidRequest(
        `${route.provider.prefix} serves no embeddings; only ${embeddingPrefixes().join(" and ")} do`,
        { param: "model", code: "model_not_supported" },
      );
    }
    const organizationId = context.principal.organizationId;
    const span = this.tracing.start("embeddings", body.model, organizationId, context.requestId);
    let target: Awaited<ReturnType<TargetResolver["resolve"]>>;
    try {
      target = await this.targets.resolve(route, context.principal, "embeddings");
    } catch (error) {
      this.tracing.fail(span, error);
      throw error;
    }
    this.tracing.request(span, route, organizationId, body.input);
    let outcome: UsageEvent["outcome"] = "error";
    let failure: unknown;
    let promptTokens = body.input.reduce((sum, text) => sum + estimateTokens(text), 0);
    try {
      const embed = target.adapter.embed;
      if (embed === undefined) {
        throw invalidRequest(`${body.model} serves no embeddings`, {
          param: "model",
          code: "model_not_supported",
        });
      }
      const result = await withSafeRetry(
        () =>
          embed(
            {
              model: route.model,
              input: body.input,
              ...(body.dimensions === undefined ? {} : { dimensions: body.dimensions }),
              ...(body.user === undefined ? {} : { user: body.user }),
            },
            signalOf(context),
          ),
        cancellationOf(context),
      );
      outcome = "ok";
      promptTokens = result.promptTokens || promptTokens;
      return {
        object: "list",
        data: result.vectors.map((vector, index) => ({
          object: "embedding",
          index,
          embedding: encodeEmbedding(vector, body.encodingFormat),
        })),
        model: body.model,
        usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
      };
    } catch (error) {
      failure = error;
      outcome = outcomeOf(context);
      throw error;
    } finally {
      target.release();
      const cost = await this.metering.record(
        context,
        {
          model: body.model,
          surface: "EMBEDDINGS",
          byok: target.byok,
          started,
          outcome,
          endUser: body.user,
          price: route.kind === "builtin" ? BUILTIN_EMBEDDING_PRICES[route.model] : undefined,
          failure,
        },
        { promptTokens, completionTokens: 0, cachedTokens: null },
      );
      const usage = { inputTokens: promptTokens, outputTokens: 0, costEur: cost };
      if (outcome === "ok") this.tracing.finish(span, organizationId, usage);
      else this.tracing.fail(span, failure, usage);
    }
  }

  private async hashEmbeddings(
    body: EmbeddingsBody,
    context: CallContext,
    started: number,
  ): Promise<EmbeddingsResult> {
    if (body.dimensions !== undefined && body.dimensions !== HASH_EMBEDDING_DIMENSIONS) {
      throw invalidRequest(`${HASH_EMBEDDING_MODEL} has exactly ${HASH_EMBEDDING_DIMENSIONS} dimensions`, {
        param: "dimensions",
      });
    }
    const organizationId = context.principal.organizationId;
    const span = this.tracing.start("embeddings", body.model, organizationId, context.requestId);
    this.tracing.request(span, { kind: "builtin", model: HASH_EMBEDDING_MODEL }, organizationId, body.input);
    const promptTokens = body.input.reduce((sum, text) => sum + estimateTokens(text), 0);
    const data = body.input.map((text, index) => ({
      object: "embedding" as const,
      index,
      embedding: encodeEmbedding(hashEmbedding(text), body.encodingFormat),
    }));
    const call = {
      model: body.model,
      surface: "EMBEDDINGS" as const,
      byok: false,
      started,
      outcome: "ok" as const,
      endUser: body.user,
    };
    const cost = await this.metering.record(context, call, {
      promptTokens,
      completionTokens: 0,
      cachedTokens: null,
    });
    this.tracing.finish(span, organizationId, { inputTokens: promptTokens, outputTokens: 0, costEur: cost });
    return {
      object: "list",
      data,
      model: body.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    };
  }

  // ---- audio ----

  /** Forwards a transcription to hosted-a / cloud-a (or the built-in service), answering its body as it is. */
  async transcribe(request: TranscriptionRequest, context: CallContext): Promise<TranscriptionResult> {
    const started = performance.now();
    const route = parseModelString(request.model);
    if (route.kind === "provider" && !route.provider.transcription) {
      throw invalidRequest(
        `${route.provider.prefix} does not transcribe audio; only hosted-a and cloud-a do`,
        {
          param: "model",
          code: "model_not_supported",
        },
      );
    }
    const target = await this.targets.resolve(route, context.principal, "chat");
    let outcome: UsageEvent["outcome"] = "error";
    let failure: unknown;
    try {
      const transcribe = target.adapter.transcribe;
      if (transcribe === undefined) {
        throw invalidRequest(`${request.model} does not transcribe audio`, {
          param: "model",
          code: "model_not_supported",
        });
      }
      const result = await withSafeRetry(
        () => transcribe({ ...request, model: route.model }, signalOf(context)),
        cancellationOf(context),
      );
      outcome = "ok";
      return result;
    } catch (error) {
      failure = error;
      outcome = outcomeOf(context);
      throw error;
    } finally {
      target.release();
      const call = {
        model: request.model,
        surface: "AUDIO" as const,
        byok: target.byok,
        started,
        outcome,
        endUser: undefined,
        failure,
      };
      await this.metering.record(context, call, { promptTokens: 0, completionTokens: 0, cachedTokens: null });
    }
  }

  // ---- models ----

  /** Built-in models plus `<prefix>/<model>` for every model each configured provider lists. */
  async listModels(
    principal: Principal,
    signal?: AbortSignal,
  ): Promise<{ object: "list"; data: ModelEntry[] }> {
    const created = Math.floor(this.clock.now() / 1000);
    const entry = (id: string, owner: string): ModelEntry => ({
      id,
      object: "model",
      created,
      owned_by: owner,
    });
    const data: ModelEntry[] = [entry(HASH_EMBEDDING_MODEL, "groundwork")];
    if (this.targets.builtin !== null) {
      for (const id of BUILTIN_EMBEDDING_MODELS) data.push(entry(id, "groundwork"));
      const builtinModels = await this.targets.builtin
        .listModels(signal === undefined ? {} : { signal })
        .catch(() => []);
      for (const id of builtinModels) if (!data.some((m) => m.id === id)) data.push(entry(id, "groundwork"));
    }
    if (this.targets.allowance.ownProvidersRefusal(principal) === null) {
      for (const account of await this.options.providers.list(principal.organizationId)) {
        const kind = PROVIDER_KINDS[account.type];
        // One unreachable provider must not hide the others.
        const ids = await this.adapterFor(account)
          .listModels(signal === undefined ? {} : { signal })
          .catch(() => []);
        for (const id of ids) data.push(entry(`${kind.prefix}/${id}`, account.name));
      }
    }
    return { object: "list", data };
  }

  /** Builds the adapter of one account (used by `/v1/providers/test` and model listings). */
  adapterFor(account: ProviderAccount): ProviderAdapter {
    return this.targets.adapterFor(account);
  }
}

function embeddingPrefixes(): string[] {
  return MODEL_PREFIXES.filter((prefix) =>
    Object.values(PROVIDER_KINDS).some((k) => k.prefix === prefix && k.embeddings),
  );
}
