/**
 * Knowledge bases of an organization: create with the API's defaults, read, change
 * (each change is the next configuration version; a new text-search language starts
 * a background reindex) and delete. The embedding model is checked against the
 * provider's catalogue at the provisioned width, without calling the provider.
 */
import { type Allowance, invalidRequest, notFound, type PageRequest, type Principal } from "@groundwork/core";
import { type EmbeddingCatalogue, embeddingCatalogue, type ProviderType } from "@groundwork/gateway";
import {
  BUILTIN_PROVIDER_ID,
  type KnowledgeBaseConfig,
  type KnowledgeBaseRecord,
  PROVISIONED_EMBEDDING_DIM,
  type TextSearchLanguage,
} from "@groundwork/kb";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";
import {
  changedKnowledgeBaseConfig,
  type KnowledgeBaseChanges,
  type KnowledgeBaseFields,
  knowledgeBaseChangesSchema,
  knowledgeBaseFieldsSchema,
  languageChange,
  newKnowledgeBaseConfig,
} from "./knowledge-base-fields.js";

export interface KnowledgeBasesOptions {
  /** Whether a built-in model service serves `text-embedding-3-small|large` (the built-in catalogue). */
  builtinEmbeddings?: boolean;
  /** Asked before an upload is stored (`402 storage_exhausted`, PLATFORM.md §15); none: not limited. */
  allowance?: Allowance;
}

export abstract class KnowledgeBases {
  constructor(
    readonly store: PlatformStore,
    protected readonly basesOptions: KnowledgeBasesOptions = {},
  ) {}

  /** Queues a background reindex of the keyword index in `language`. */
  abstract enqueueReindex(knowledgeBase: KnowledgeBaseRecord, language: TextSearchLanguage): Promise<void>;

  /** A live knowledge base of the organization; 404 otherwise. */
  async knowledgeBase(organizationId: string, id: string): Promise<KnowledgeBaseRecord> {
    const kb = await this.store.knowledgeBases.get(organizationId, id);
    if (kb === null) throw notFound(`No knowledge base ${id}`, { param: "knowledgeBaseId" });
    return kb;
  }

  /** Newest first. */
  async listKnowledgeBases(
    organizationId: string,
    page: PageRequest,
  ): Promise<{ items: KnowledgeBaseRecord[]; total: number }> {
    return await this.store.knowledgeBases.list(organizationId, page);
  }

  /** A new knowledge base; omitted fields take the API's defaults (HIERARCHICAL chunking, hybrid search, `simple`). */
  async createKnowledgeBase(principal: Principal, fields: KnowledgeBaseFields): Promise<KnowledgeBaseRecord> {
    const config = newKnowledgeBaseConfig(validate(knowledgeBaseFieldsSchema, fields));
    await this.checkEmbeddingModel(principal.organizationId, config);
    return await this.store.knowledgeBases.create(principal.organizationId, config);
  }

  /** Replaces the given fields (omitted ones keep their value) and stores the next configuration version. */
  async updateKnowledgeBase(
    principal: Principal,
    id: string,
    changes: KnowledgeBaseChanges,
  ): Promise<KnowledgeBaseRecord> {
    const current = await this.knowledgeBase(principal.organizationId, id);
    const parsed = validate(knowledgeBaseChangesSchema, changes);
    const config = changedKnowledgeBaseConfig(current, parsed);
    if (parsed.embeddingProviderId !== undefined || parsed.embeddingModel !== undefined) {
      await this.checkEmbeddingModel(current.organizationId, config);
    }
    const { pending, reindex } = languageChange(current, parsed.textSearchLanguage);
    const updated = await this.store.knowledgeBases.update(
      current.organizationId,
      current.id,
      config,
      pending,
    );
    if (updated === null) throw notFound(`No knowledge base ${current.id}`, { param: "knowledgeBaseId" });
    if (reindex !== null) await this.enqueueReindex(updated, reindex);
    return updated;
  }

  async deleteKnowledgeBase(principal: Principal, id: string): Promise<void> {
    const kb = await this.knowledgeBase(principal.organizationId, id);
    await this.store.knowledgeBases.softDelete(kb.organizationId, kb.id);
  }

  /** The embedding models a provider of the organization (or `builtin`) serves, one entry per width. */
  async embeddingModels(organizationId: string, providerId: string): Promise<EmbeddingCatalogue> {
    if (providerId === BUILTIN_PROVIDER_ID) return this.catalogueOf(BUILTIN_PROVIDER_ID);
    const record = await this.store.providers.get(organizationId, providerId);
    if (record === null) throw notFound(`No provider ${providerId}`, { param: "providerId" });
    return this.catalogueOf(record.type as ProviderType);
  }

  private catalogueOf(kind: ProviderType | typeof BUILTIN_PROVIDER_ID): EmbeddingCatalogue {
    return embeddingCatalogue(kind, this.basesOptions.builtinEmbeddings ?? false);
  }

  /** Checks the model against the provider's catalogue at the provisioned width, without calling it. */
  private async checkEmbeddingModel(
    organizationId: string,
    config: Pick<KnowledgeBaseConfig, "embeddingProviderId" | "embeddingModel" | "embeddingDim">,
  ): Promise<void> {
    let kind: ProviderType | typeof BUILTIN_PROVIDER_ID = BUILTIN_PROVIDER_ID;
    if (config.embeddingProviderId !== BUILTIN_PROVIDER_ID) {
      const provider = await this.store.providers.get(organizationId, config.embeddingProviderId);
      if (provider === null) {
        throw invalidRequest(
          `No provider ${config.embeddingProviderId} is configured for this organization`,
          {
            param: "embeddingProviderId",
          },
        );
      }
      kind = provider.type as ProviderType;
    }
    const catalogue = this.catalogueOf(kind);
    const widths = catalogue.models.filter((m) => m.id === config.embeddingModel).map((m) => m.dimensions);
    if (widths.length === 0) {
      const known = [...new Set(catalogue.models.map((m) => m.id))];
      throw invalidRequest(
        `The provider does not serve the embedding model "${config.embeddingModel}"${
          known.length === 0 ? " (it has no catalogued embedding model)" : `; it serves ${known.join(", ")}`
        }`,
        { param: "embeddingModel" },
      );
    }
    if (config.embeddingDim !== PROVISIONED_EMBEDDING_DIM) {
      throw invalidRequest(
        `embeddingDim ${config.embeddingDim} is not provisioned; knowledge bases store ${PROVISIONED_EMBEDDING_DIM}-wide vectors`,
        { param: "embeddingDim" },
      );
    }
    if (!widths.includes(config.embeddingDim)) {
      throw invalidRequest(
        `"${config.embeddingModel}" cannot serve ${config.embeddingDim} dimensions (it serves ${widths.join(", ")})`,
        { param: "embeddingDim" },
      );
    }
  }
}
