/**
 * The CLOUD_A adapter, on the `openai` package's `AzureOpenAI` client. The model name after
 * the prefix is the deployment name; the client puts it in the path
 * (`{endpoint}/openai/deployments/{deployment}/…`) and authenticates with the `api-key` header.
 */
import type { ChatCompletionChunk } from "@groundwork/core";
import { invalidRequest, upstreamError } from "@groundwork/core";
import { AzureOpenAI } from "openai";
import type { EmbeddingsResponse, ProviderAdapter } from "../adapter.js";
import { callUpstream, requestOptions, toUpstreamError, type UpstreamAccount } from "../upstream-errors.js";
import {
  AZURE_CHAT_API_VERSION,
  fromAzureChunk,
  fromAzureCompletion,
  toAzureChatBody,
} from "./azure-translate.js";
import { transcribeWith } from "./openai-compatible-adapter.js";

export interface AzureAdapterOptions {
  apiKey: string;
  /** The resource URL, e.g. `https://my-resource.openai.azure.com`. */
  endpoint: string;
  /** Used only to list deployments (spec); default {@link AZURE_DEFAULT_API_VERSION}. */
  apiVersion?: string;
  fetch?: typeof fetch;
  /** Per request; the SDK's default (ten minutes) when omitted. */
  timeoutMs?: number;
}

export const AZURE_DEFAULT_API_VERSION = "2024-08-01-preview";

const PROVIDER = "cloud-a";
// The vendor's rule for deployment names; anything else must not reach the URL path.
const DEPLOYMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

interface DeploymentList {
  data?: Array<{ id?: unknown }>;
}

export function createAzureAdapter(options: AzureAdapterOptions): ProviderAdapter {
  // The SDK's constructor throws a bare error without a key; the caller gets a clear 400 instead.
  if (options.apiKey.length === 0) throw invalidRequest(`${PROVIDER} needs an apiKey`, { param: "apiKey" });
  const client = new AzureOpenAI({
    apiKey: options.apiKey,
    apiVersion: AZURE_CHAT_API_VERSION,
    // `baseURL` rather than `endpoint`, and explicit nulls, keep the gateway host's OPENAI_*
    // environment out of customer calls (OPENAI_BASE_URL would even make the client throw).
    baseURL: `${options.endpoint.replace(/\/+$/, "")}/openai`,
    organization: null,
    project: null,
    adminAPIKey: null,
    // The gateway answers a provider's 429 with its own 429 and Retry-After; retrying here
    // would hold a concurrent-call slot and hide the provider's state from the caller.
    maxRetries: 0,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  // The key the provider may quote back when it refuses it: redacted from every error.
  const account: UpstreamAccount = { provider: PROVIDER, secret: options.apiKey };
  const listApiVersion = options.apiVersion ?? AZURE_DEFAULT_API_VERSION;

  return {
    complete(request, callOptions) {
      return callUpstream(account, callOptions?.signal, async () => {
        const body = toAzureChatBody(request, deploymentOf(request.model));
        const completion = await client.chat.completions.create(
          { ...body, stream: false },
          requestOptions(callOptions),
        );
        return fromAzureCompletion(completion);
      });
    },

    async *stream(request, callOptions): AsyncGenerator<ChatCompletionChunk> {
      const body = toAzureChatBody(request, deploymentOf(request.model));
      // Usage is always asked for: the gateway shows the usage chunk only to callers who
      // sent `stream_options.include_usage`, but records token counts for every call.
      const chunks = await callUpstream(account, callOptions?.signal, () =>
        client.chat.completions.create(
          { ...body, stream: true, stream_options: { include_usage: true } },
          requestOptions(callOptions),
        ),
      );
      let finished = false;
      try {
        // Leaving this loop early (the caller stopped reading) makes the SDK abort the request.
        for await (const vendorChunk of chunks) {
          const chunk = fromAzureChunk(vendorChunk);
          if (chunk === undefined) continue;
          if (chunk.choices.some((choice) => choice.finish_reason !== null)) finished = true;
          yield chunk;
        }
      } catch (error) {
        callOptions?.signal?.throwIfAborted();
        throw toUpstreamError(error, account);
      }
      // The SDK ends an aborted stream quietly; the caller must see the abort, not a short answer.
      callOptions?.signal?.throwIfAborted();
      if (!finished) throw upstreamError(`${PROVIDER} ended the stream without a finish_reason`, "failed");
    },

    embed(request, callOptions) {
      return callUpstream(account, callOptions?.signal, async (): Promise<EmbeddingsResponse> => {
        const response = await client.embeddings.create(
          {
            model: deploymentOf(request.model),
            input: request.input,
            encoding_format: "float",
            ...(request.dimensions === undefined ? {} : { dimensions: request.dimensions }),
          },
          requestOptions(callOptions),
        );
        const data = [...response.data].sort((a, b) => a.index - b.index);
        if (data.length !== request.input.length) {
          throw upstreamError(
            `${PROVIDER} answered ${data.length} embeddings for ${request.input.length} inputs`,
            "failed",
          );
        }
        return { vectors: data.map((item) => item.embedding), promptTokens: response.usage.prompt_tokens };
      });
    },

    transcribe(request, callOptions) {
      // The deployment goes in the path explicitly: the client's own rewrite reads `model` from JSON bodies only.
      const path = `/deployments/${deploymentOf(request.model)}/audio/transcriptions`;
      return callUpstream(account, callOptions?.signal, () =>
        transcribeWith(client, path, request, callOptions ?? {}),
      );
    },

    listModels(callOptions) {
      return callUpstream(account, callOptions?.signal, async () => {
        // The deployments are the model names of this kind; the resource's base-model list
        // (`/openai/models`) names models that may have no deployment.
        const list = await client.get<DeploymentList>("/deployments", {
          query: { "api-version": listApiVersion },
          ...requestOptions(callOptions),
        });
        if (!Array.isArray(list.data)) {
          throw upstreamError(`${PROVIDER} answered the deployment list without a data array`, "failed");
        }
        return list.data.flatMap((deployment) => (typeof deployment.id === "string" ? [deployment.id] : []));
      });
    },
  };
}

function deploymentOf(model: string): string {
  if (DEPLOYMENT_NAME.test(model)) return model;
  throw invalidRequest(`"${model}" is not a valid cloud-a deployment name`, { param: "model" });
}
