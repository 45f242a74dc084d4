/**
 * The extraction engine: chooses the strategy from the input's estimated token count, calls the
 * chat-model port once (single shot) or once per overlapping chunk with a carry-forward summary
 * (chunked), merges, deduplicates, validates and resequences chunk outputs, and scores the final
 * output with @groundwork/scoring. Pure: the model, the clock and the pricing are injected.
 */
import {
  type ChatCompletion,
  type ChatModel,
  type ChatUsage,
  type Clock,
  estimateTokens,
  systemClock,
} from "@groundwork/core";
import { type ExtractionConfig, type ResultScoring, scoreResult } from "@groundwork/scoring";
import { chunkText, type TextChunk } from "./chunking.js";
import { dedupItems } from "./dedup.js";
import { itemArraysOf } from "./item-arrays.js";
import { mergeChunkOutputs } from "./merge.js";
import {
  ChunkCorpus,
  type PostValidationReport,
  removeInventedItems,
  restoreRequiredFields,
} from "./post-validation.js";
import { buildChatRequest, carryForwardSummary, type InputImage, parseModelJson } from "./prompts.js";
import { resequenceItems } from "./resequence.js";

export type ExtractionStrategy = "SINGLE_SHOT" | "CHUNKED" | "ASYNC";

export interface ExtractionSettings {
  /** Inputs estimated below this many tokens run as one model call. */
  singleShotBelowTokens: number;
  /** Inputs estimated above this many tokens run in the background (`ASYNC`). */
  asyncAboveTokens: number;
  /** Target chunk size of chunked runs, in estimated tokens. */
  chunkTokens: number;
  /** Overlap between consecutive chunks, in estimated tokens. */
  overlapTokens: number;
  /** Identifiers per item array listed in the carry-forward summary. */
  summaryMaxItems: number;
  /** Upper bound of the carry-forward summary, in characters. */
  summaryMaxChars: number;
  /** `max_tokens` sent with each call; undefined sends none (the model's own limit applies). */
  maxOutputTokens?: number;
  /** Estimated output tokens per input token, for `estimate`. */
  outputRatio: number;
}

export const DEFAULT_EXTRACTION_SETTINGS: ExtractionSettings = {
  singleShotBelowTokens: 50_000,
  asyncAboveTokens: 100_000,
  chunkTokens: 16_000,
  overlapTokens: 800,
  summaryMaxItems: 50,
  summaryMaxChars: 6_000,
  outputRatio: 0.15,
};

export interface ExtractionInput {
  jsonSchema: Record<string, unknown>;
  /** Used as the structured-output schema name. */
  schemaName?: string;
  extractionConfig?: ExtractionConfig | null;
  inputText?: string | null;
  inputImages?: readonly InputImage[];
  /** The model string as the client sent it (`name` or `<prefix>/<model>`). */
  model: string;
}

export interface ExtractionMetadata {
  inputTokens: number;
  outputTokens: number;
  cost: number;
  durationMs: number;
  model: string;
  chunksProcessed: number;
}

export interface DedupReport {
  applied: boolean;
  itemsRemoved: number;
  itemsMerged: number;
  resequenced: boolean;
  originalItemCount: number;
  finalItemCount: number;
}

export interface ResultMetadata extends ResultScoring {
  dedup: DedupReport;
  postValidation: PostValidationReport;
}

export interface ExtractionResult {
  structuredOutput: unknown;
  metadata: ExtractionMetadata;
  resultMetadata: ResultMetadata;
}

/** The run itself failed (a model call failed, or an answer was not JSON). */
export class ExtractionRunError extends Error {
  constructor(
    message: string,
    readonly metadata: ExtractionMetadata,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ExtractionRunError";
  }
}

export interface ExtractionEngineOptions {
  model: ChatModel;
  clock?: Clock;
  settings?: Partial<ExtractionSettings>;
  /** What one call cost (EUR); defaults to 0. The server prices calls the way the gateway meters them. */
  costOf?: (model: string, usage: ChatUsage) => number;
}

export interface RunOptions {
  /** `ASYNC` runs the pipeline the size calls for and reports `ASYNC`; default: chosen by size. */
  strategy?: ExtractionStrategy;
  signal?: AbortSignal;
}

/** One model call's answer, for `POST /v1/schemas/{id}/test`. */
export interface SingleCallResult {
  output: unknown;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
}

interface Usage {
  inputTokens: number;
  outputTokens: number;
  cost: number;
  calls: number;
}

export class ExtractionEngine {
  readonly settings: ExtractionSettings;
  private readonly model: ChatModel;
  private readonly clock: Clock;
  private readonly costOf: (model: string, usage: ChatUsage) => number;

  constructor(options: ExtractionEngineOptions) {
    this.model = options.model;
    this.clock = options.clock ?? systemClock;
    this.settings = { ...DEFAULT_EXTRACTION_SETTINGS, ...options.settings };
    this.costOf = options.costOf ?? (() => 0);
  }

  /** SINGLE_SHOT under 50K estimated tokens, CHUNKED from 50K to 100K, ASYNC above. */
  strategyFor(inputTokens: number): ExtractionStrategy {
    if (inputTokens < this.settings.singleShotBelowTokens) return "SINGLE_SHOT";
    if (inputTokens <= this.settings.asyncAboveTokens) return "CHUNKED";
    return "ASYNC";
  }

  estimate(inputText: string): {
    inputTokens: number;
    estimatedOutputTokens: number;
    strategy: ExtractionStrategy;
  } {
    const inputTokens = estimateTokens(inputText);
    return {
      inputTokens,
      estimatedOutputTokens: Math.max(16, Math.ceil(inputTokens * this.settings.outputRatio)),
      strategy: this.strategyFor(inputTokens),
    };
  }

  async run(input: ExtractionInput, options: RunOptions = {}): Promise<ExtractionResult> {
    const started = this.clock.now();
    const text = input.inputText ?? null;
    const tokens = text === null ? 0 : estimateTokens(text);
    const strategy = options.strategy ?? this.strategyFor(tokens);
    const chunked =
      strategy === "CHUNKED" || (strategy === "ASYNC" && tokens >= this.settings.singleShotBelowTokens);
    const usage: Usage = { inputTokens: 0, outputTokens: 0, cost: 0, calls: 0 };
    const metadata = (): ExtractionMetadata => ({
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cost: roundCost(usage.cost),
      durationMs: Math.max(0, this.clock.now() - started),
      model: input.model,
      chunksProcessed: usage.calls,
    });
    try {
      const outcome =
        chunked && text !== null
          ? await this.runChunked(input, text, usage, options.signal)
          : await this.runSingleShot(input, text, usage, options.signal);
      return { ...outcome, metadata: metadata() };
    } catch (error) {
      if (error instanceof ExtractionRunError)
        throw new ExtractionRunError(error.message, metadata(), { cause: error.cause });
      const message = error instanceof Error ? error.message : String(error);
      throw new ExtractionRunError(message, metadata(), { cause: error });
    }
  }

  /** One call on a sample, nothing merged or scored (the schema test endpoint). */
  async extractOnce(input: ExtractionInput, signal?: AbortSignal): Promise<SingleCallResult> {
    const started = this.clock.now();
    const usage: Usage = { inputTokens: 0, outputTokens: 0, cost: 0, calls: 0 };
    const output = await this.call(
      input,
      input.inputText ?? null,
      input.inputImages ?? [],
      null,
      null,
      usage,
      signal,
    );
    return {
      output,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      durationMs: Math.max(0, this.clock.now() - started),
    };
  }

  private async runSingleShot(
    input: ExtractionInput,
    text: string | null,
    usage: Usage,
    signal: AbortSignal | undefined,
  ): Promise<Omit<ExtractionResult, "metadata">> {
    const output = await this.call(input, text, input.inputImages ?? [], null, null, usage, signal);
    const scoring = scoreResult({
      jsonSchema: input.jsonSchema,
      output,
      inputText: text,
      extractionConfig: input.extractionConfig ?? null,
    });
    const count = itemArraysOf(input.jsonSchema, output, input.extractionConfig).reduce(
      (sum, array) => sum + array.items.length,
      0,
    );
    return {
      structuredOutput: output,
      resultMetadata: {
        dedup: {
          applied: false,
          itemsRemoved: 0,
          itemsMerged: 0,
          resequenced: false,
          originalItemCount: count,
          finalItemCount: count,
        },
        postValidation: {
          applied: false,
          hallucinatedItemsRemoved: 0,
          requiredFieldsRestored: 0,
          removedItemKeys: [],
        },
        ...scoring,
      },
    };
  }

  private async runChunked(
    input: ExtractionInput,
    text: string,
    usage: Usage,
    signal: AbortSignal | undefined,
  ): Promise<Omit<ExtractionResult, "metadata">> {
    const chunks = chunkText(text, this.settings);
    let merged: unknown = null;
    for (const chunk of chunks) {
      const summary =
        chunk.index === 0
          ? null
          : carryForwardSummary(input.jsonSchema, merged, input.extractionConfig, {
              maxItems: this.settings.summaryMaxItems,
              maxChars: this.settings.summaryMaxChars,
            });
      const output = await this.call(
        input,
        chunk.text,
        // Images go with the first part only: every later part would pay for them again.
        chunk.index === 0 ? (input.inputImages ?? []) : [],
        { index: chunk.index + 1, count: chunks.length },
        summary,
        usage,
        signal,
      );
      merged = mergeChunkOutputs([merged, output]);
    }
    return finishChunked(input, merged, chunks, text);
  }

  private async call(
    input: ExtractionInput,
    text: string | null,
    images: readonly InputImage[],
    part: { index: number; count: number } | null,
    summary: string | null,
    usage: Usage,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    signal?.throwIfAborted();
    const request = buildChatRequest({
      jsonSchema: input.jsonSchema,
      schemaName: input.schemaName ?? "extraction",
      model: input.model,
      text,
      images,
      ...(part === null ? {} : { part }),
      summary,
      ...(this.settings.maxOutputTokens === undefined
        ? {}
        : { maxOutputTokens: this.settings.maxOutputTokens }),
    });
    const completion: ChatCompletion = await this.model.complete(
      request,
      signal === undefined ? {} : { signal },
    );
    usage.calls += 1;
    const callUsage = completion.usage ?? estimatedUsage(request.messages, completion);
    usage.inputTokens += callUsage.prompt_tokens;
    usage.outputTokens += callUsage.completion_tokens;
    usage.cost += this.costOf(input.model, callUsage);
    const choice = completion.choices[0];
    const where = part === null || part.count === 1 ? "" : ` (part ${part.index} of ${part.count})`;
    if (choice === undefined)
      throw new ExtractionRunError(`The model returned no answer${where}`, emptyMetadata());
    const parsed = parseModelJson(choice.message.content);
    if (!parsed.ok) {
      const cut =
        choice.finish_reason === "length" ? ": the answer was cut off at the output token limit" : "";
      throw new ExtractionRunError(`The model did not answer with JSON${where}${cut}`, emptyMetadata());
    }
    return parsed.value;
  }
}

/** Merge, dedup, post-merge validation, resequencing and scoring of a chunked run's outputs. */
export function finishChunked(
  input: Pick<ExtractionInput, "jsonSchema" | "extractionConfig">,
  merged: unknown,
  chunks: readonly Pick<TextChunk, "text">[],
  /** The whole input the chunks were cut from: grounding spans are offsets into it. */
  document?: string,
): Omit<ExtractionResult, "metadata"> {
  const config = input.extractionConfig ?? null;
  let originalItemCount = 0;
  let finalItemCount = 0;
  let itemsRemoved = 0;
  let itemsMerged = 0;
  for (const array of itemArraysOf(input.jsonSchema, merged, config)) {
    const outcome = dedupItems(array.items, array.keyFields);
    originalItemCount += array.items.length;
    finalItemCount += outcome.items.length;
    itemsRemoved += outcome.itemsRemoved;
    itemsMerged += outcome.itemsMerged;
    array.replace(outcome.items);
  }

  const chunkTexts = chunks.map((chunk) => chunk.text);
  const removedItemKeys = removeInventedItems(
    itemArraysOf(input.jsonSchema, merged, config),
    new ChunkCorpus(chunkTexts),
  );
  const restoredNullPointers = restoreRequiredFields(input.jsonSchema, merged);

  let resequenced = false;
  for (const array of itemArraysOf(input.jsonSchema, merged, config)) {
    if (resequenceItems(array.items, array.keyFields).length > 0) resequenced = true;
  }

  const scoring = scoreResult({
    jsonSchema: input.jsonSchema,
    output: merged,
    chunkTexts,
    // The basis is searched per chunk; spans are located in the whole input (offsets into the document).
    ...(document === undefined ? {} : { inputText: document }),
    extractionConfig: config,
    restoredNullPointers,
  });
  return {
    structuredOutput: merged,
    resultMetadata: {
      dedup: { applied: true, itemsRemoved, itemsMerged, resequenced, originalItemCount, finalItemCount },
      postValidation: {
        applied: true,
        hallucinatedItemsRemoved: removedItemKeys.length,
        requiredFieldsRestored: restoredNullPointers.length,
        removedItemKeys,
      },
      ...scoring,
    },
  };
}

function emptyMetadata(): ExtractionMetadata {
  return { inputTokens: 0, outputTokens: 0, cost: 0, durationMs: 0, model: "", chunksProcessed: 0 };
}

function roundCost(cost: number): number {
  return Math.round(cost * 1e8) / 1e8;
}

/** Usage when a provider reports none: the same estimate the gateway meters with. */
function estimatedUsage(
  messages: ReadonlyArray<{ content: unknown }>,
  completion: ChatCompletion,
): ChatUsage {
  let prompt = 0;
  for (const message of messages) {
    if (typeof message.content === "string") prompt += estimateTokens(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content as Array<{ type: string; text?: string }>) {
        if (part.type === "text" && part.text !== undefined) prompt += estimateTokens(part.text);
      }
    }
  }
  const answer = completion.choices[0]?.message.content ?? "";
  const completionTokens = estimateTokens(answer);
  return {
    prompt_tokens: prompt,
    completion_tokens: completionTokens,
    total_tokens: prompt + completionTokens,
  };
}
