/**
 * The fields of a knowledge base as a caller writes them (the body of
 * `POST /v1/knowledge-bases`), with the API's defaults, and the configuration a
 * change produces. Validated here so a library call gets the same checks and
 * messages as an HTTP request.
 */
import { invalidRequest } from "@groundwork/core";
import {
  CHUNKING_STRATEGIES,
  checkChunking,
  checkReranker,
  checkTextSearchLanguage,
  type KnowledgeBaseConfig,
  type KnowledgeBaseRecord,
  LIMITS,
  SLUG_PATTERN,
  type TextSearchLanguage,
} from "@groundwork/kb";
import { z } from "zod";

const field = {
  name: z.string().trim().min(1).max(255),
  slug: z
    .string()
    .max(100)
    .regex(SLUG_PATTERN, "must be lowercase letters, digits and single hyphens (e.g. product-docs)"),
  description: z.string().max(LIMITS.description).nullable(),
  embeddingProviderId: z.string().min(1),
  embeddingModel: z.string().min(1),
  embeddingDim: z.number().int().positive(),
  chunkingStrategy: z.enum(CHUNKING_STRATEGIES),
  chunkSize: z.number().int().min(LIMITS.chunkSize.min).max(LIMITS.chunkSize.max),
  chunkOverlap: z.number().int().min(LIMITS.chunkOverlap.min).max(LIMITS.chunkOverlap.max),
  parentChunkSize: z.number().int().min(LIMITS.parentChunkSize.min).max(LIMITS.parentChunkSize.max),
  hybridSearchEnabled: z.boolean(),
  rerankerProviderId: z.string().nullable(),
  textSearchLanguage: z.string().min(1),
};

/** A new knowledge base: name, slug and the embedding model are required; the rest has the API's defaults. */
export const knowledgeBaseFieldsSchema = z.object({
  name: field.name,
  slug: field.slug,
  description: field.description.optional(),
  embeddingProviderId: field.embeddingProviderId,
  embeddingModel: field.embeddingModel,
  embeddingDim: field.embeddingDim,
  chunkingStrategy: field.chunkingStrategy.optional(),
  chunkSize: field.chunkSize.optional(),
  chunkOverlap: field.chunkOverlap.optional(),
  parentChunkSize: field.parentChunkSize.optional(),
  hybridSearchEnabled: field.hybridSearchEnabled.optional(),
  rerankerProviderId: field.rerankerProviderId.optional(),
  textSearchLanguage: field.textSearchLanguage.optional(),
});

/** A change: omitted fields keep their value (docs/knowledge-bases.md K2). */
export const knowledgeBaseChangesSchema = knowledgeBaseFieldsSchema.partial();

export type KnowledgeBaseFields = z.input<typeof knowledgeBaseFieldsSchema>;
export type KnowledgeBaseChanges = z.input<typeof knowledgeBaseChangesSchema>;

/** The configuration of a new knowledge base (chunking, reranker and language checked; the model is not). */
export function newKnowledgeBaseConfig(
  fields: z.output<typeof knowledgeBaseFieldsSchema>,
): KnowledgeBaseConfig {
  const config: KnowledgeBaseConfig = {
    name: fields.name,
    slug: fields.slug,
    description: fields.description ?? null,
    embeddingProviderId: fields.embeddingProviderId,
    embeddingModel: fields.embeddingModel,
    embeddingDim: fields.embeddingDim,
    chunkingStrategy: fields.chunkingStrategy ?? "HIERARCHICAL",
    chunkSize: fields.chunkSize ?? LIMITS.chunkSize.default,
    chunkOverlap: fields.chunkOverlap ?? LIMITS.chunkOverlap.default,
    parentChunkSize: fields.parentChunkSize ?? LIMITS.parentChunkSize.default,
    hybridSearchEnabled: fields.hybridSearchEnabled ?? true,
    rerankerProviderId: checkReranker(fields.rerankerProviderId),
    textSearchLanguage: checkTextSearchLanguage(fields.textSearchLanguage ?? "simple"),
  };
  checkChunking(config);
  return config;
}

/** The configuration after a change; `embeddingDim` may only repeat the current width, the language is {@link languageChange}'s. */
export function changedKnowledgeBaseConfig(
  current: KnowledgeBaseRecord,
  changes: z.output<typeof knowledgeBaseChangesSchema>,
): KnowledgeBaseConfig {
  if (changes.embeddingDim !== undefined && changes.embeddingDim !== current.embeddingDim) {
    throw invalidRequest(`embeddingDim cannot change after creation (it is ${current.embeddingDim})`, {
      param: "embeddingDim",
    });
  }
  const config: KnowledgeBaseConfig = {
    name: changes.name ?? current.name,
    slug: changes.slug ?? current.slug,
    description: changes.description === undefined ? current.description : changes.description,
    embeddingProviderId: changes.embeddingProviderId ?? current.embeddingProviderId,
    embeddingModel: changes.embeddingModel ?? current.embeddingModel,
    embeddingDim: current.embeddingDim,
    chunkingStrategy: changes.chunkingStrategy ?? current.chunkingStrategy,
    chunkSize: changes.chunkSize ?? current.chunkSize,
    chunkOverlap: changes.chunkOverlap ?? current.chunkOverlap,
    parentChunkSize: changes.parentChunkSize ?? current.parentChunkSize,
    hybridSearchEnabled: changes.hybridSearchEnabled ?? current.hybridSearchEnabled,
    rerankerProviderId:
      changes.rerankerProviderId === undefined
        ? current.rerankerProviderId
        : checkReranker(changes.rerankerProviderId),
    // Changed only through a reindex (languageChange).
    textSearchLanguage: current.textSearchLanguage,
  };
  checkChunking(config);
  return config;
}

/**
 * What asking for a text-search language does: omitted leaves a running reindex alone;
 * the active one cancels a pending change; another one (re)starts the background reindex.
 */
export function languageChange(
  current: KnowledgeBaseRecord,
  requested: string | undefined,
): { pending: TextSearchLanguage | null; reindex: TextSearchLanguage | null } {
  if (requested === undefined) return { pending: current.pendingTextSearchLanguage, reindex: null };
  const wanted = checkTextSearchLanguage(requested);
  if (wanted === current.textSearchLanguage) return { pending: null, reindex: null };
  if (wanted === current.pendingTextSearchLanguage) return { pending: wanted, reindex: null };
  return { pending: wanted, reindex: wanted };
}
