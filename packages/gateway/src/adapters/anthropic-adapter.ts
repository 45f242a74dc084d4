/**
 * The HOSTED_B adapter, on the vendor's official SDK. The chat format is translated by
 * `anthropic-translate.ts`; this file owns the client, the call options and error mapping.
 * HOSTED_B serves no embeddings, so there is no `embed`.
 */
import Anthropic from "@anthropic-ai/sdk";
import { type ChatCompletionChunk, invalidRequest } from "@groundwork/core";
import type { ProviderAdapter } from "../adapter.js";
import { callUpstream, requestOptions, toUpstreamError, type UpstreamAccount } from "../upstream-errors.js";
import { createChunkTranslator, fromMessage, toMessagesBody } from "./anthropic-translate.js";

export interface AnthropicAdapterOptions {
  apiKey: string;
  /** Default {@link ANTHROPIC_DEFAULT_BASE_URL}; like the SDK's `baseURL`, without `/v1`. */
  baseUrl?: string;
  /** The `anthropic-version` header; default {@link ANTHROPIC_DEFAULT_VERSION}. */
  version?: string;
  fetch?: typeof fetch;
  /** Per request; default {@link ANTHROPIC_DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
}

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
export const ANTHROPIC_DEFAULT_VERSION = "2023-06-01";
/**
 * The SDK's own default, set explicitly: without an explicit timeout the SDK refuses
 * non-streaming requests whose `max_tokens` might take longer than ten minutes, before
 * sending them.
 */
export const ANTHROPIC_DEFAULT_TIMEOUT_MS = 600_000;

const PROVIDER = "hosted-b";

export function createAnthropicAdapter(options: AnthropicAdapterOptions): ProviderAdapter {
  // Without a key the SDK would fail each call with a bare error the gateway reports as a 502.
  if (options.apiKey.length === 0) throw invalidRequest(`${PROVIDER} needs an apiKey`, { param: "apiKey" });
  const client = new Anthropic({
    apiKey: options.apiKey,
    // Explicit nulls and URLs keep the gateway host's ANTHROPIC_* environment out of customer calls.
    authToken: null,
    baseURL: options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL,
    defaultHeaders: { "anthropic-version": options.version ?? ANTHROPIC_DEFAULT_VERSION },
    timeout: options.timeoutMs ?? ANTHROPIC_DEFAULT_TIMEOUT_MS,
    // The gateway answers a provider's 429 with its own 429 and Retry-After; retrying here
    // would hold a concurrent-call slot and hide the provider's state from the caller.
    maxRetries: 0,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  // The key the provider may quote back when it refuses it: redacted from every error.
  const account: UpstreamAccount = { provider: PROVIDER, secret: options.apiKey };

  return {
    complete(request, callOptions) {
      return callUpstream(account, callOptions?.signal, async () => {
        const message = await client.messages.create(
          { ...toMessagesBody(request), stream: false },
          requestOptions(callOptions),
        );
        return fromMessage(message, nowSeconds());
      });
    },

    async *stream(request, callOptions): AsyncGenerator<ChatCompletionChunk> {
      const body = toMessagesBody(request);
      const events = await callUpstream(account, callOptions?.signal, () =>
        client.messages.create({ ...body, stream: true }, requestOptions(callOptions)),
      );
      const translator = createChunkTranslator(nowSeconds());
      try {
        // Leaving this loop early (the caller stopped reading) makes the SDK abort the request.
        for await (const event of events) yield* translator.accept(event);
      } catch (error) {
        callOptions?.signal?.throwIfAborted();
        throw toUpstreamError(error, account);
      }
      // The SDK ends an aborted stream quietly; the caller must see the abort, not a short answer.
      callOptions?.signal?.throwIfAborted();
      translator.end();
    },

    listModels(callOptions) {
      return callUpstream(account, callOptions?.signal, async () => {
        const ids: string[] = [];
        for await (const model of client.models.list({}, requestOptions(callOptions))) ids.push(model.id);
        return ids;
      });
    },
  };
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
