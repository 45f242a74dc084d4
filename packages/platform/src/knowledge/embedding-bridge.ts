/**
 * The knowledge bases' embedding model: a bridge over `Gateway.embeddings` with
 * a principal of the organization, so plans, BYOK, usage limits and metering
 * apply to ingestion and search exactly as to `/v1/embeddings`.
 */
import {
  type CallOptions,
  type EmbeddingModel,
  type EmbeddingRequest,
  type EmbeddingResult,
  invalidRequest,
  type Principal,
} from "@groundwork/core";
import { type Gateway, PROVIDER_KINDS, type ProviderType } from "@groundwork/gateway";
import { BUILTIN_PROVIDER_ID, type KnowledgeBaseRecord } from "@groundwork/kb";
import type { PlatformStore } from "../store-port.js";

/** Models whose width is chosen by the `dimensions` parameter; others are sent without it. */
const VARIABLE_WIDTH = /^text-embedding-3-/;

/**
 * The gateway model string of a knowledge base: the bare name for `builtin`,
 * `<prefix>/<model>` for a provider account. The gateway routes by provider kind,
 * so with several accounts of one kind the organization's first serves the call.
 */
export async function modelStringFor(
  store: PlatformStore,
  knowledgeBase: KnowledgeBaseRecord,
): Promise<string> {
  if (knowledgeBase.embeddingProviderId === BUILTIN_PROVIDER_ID) return knowledgeBase.embeddingModel;
  const provider = await store.providers.get(knowledgeBase.organizationId, knowledgeBase.embeddingProviderId);
  const kind = provider === null ? undefined : PROVIDER_KINDS[provider.type as ProviderType];
  if (kind === undefined) {
    // The provider was deleted: say so instead of routing somewhere else.
    throw invalidRequest(
      `The embedding provider ${knowledgeBase.embeddingProviderId} of this knowledge base no longer exists`,
      { param: "embeddingProviderId" },
    );
  }
  return `${kind.prefix}/${knowledgeBase.embeddingModel}`;
}

export class GatewayEmbeddingModel implements EmbeddingModel {
  constructor(
    private readonly gateway: Gateway,
    private readonly principal: Principal,
    private readonly model: string,
  ) {}

  async embed(request: EmbeddingRequest, options: CallOptions = {}): Promise<EmbeddingResult> {
    const result = await this.gateway.embeddings(
      {
        model: this.model,
        input: request.input,
        encodingFormat: "float",
        ...(request.dimensions !== undefined && VARIABLE_WIDTH.test(request.model)
          ? { dimensions: request.dimensions }
          : {}),
      },
      { principal: this.principal, ...(options.signal === undefined ? {} : { signal: options.signal }) },
    );
    const vectors = [...result.data]
      .sort((a, b) => a.index - b.index)
      .map((item) => new Float32Array(item.embedding as number[]));
    return { vectors, promptTokens: result.usage.prompt_tokens };
  }
}

/** A principal for background work of an organization (ingestion jobs), metered to the uploading key. */
export async function backgroundPrincipal(
  store: PlatformStore,
  organizationId: string,
  apiKeyId: string | null,
): Promise<Principal> {
  const organization = await store.organizations.get(organizationId);
  if (organization === null) throw new Error(`Organization ${organizationId} no longer exists`);
  return {
    organizationId,
    organizationName: organization.name,
    plan: organization.plan,
    role: "member",
    apiKeyId: apiKeyId ?? "",
  };
}
