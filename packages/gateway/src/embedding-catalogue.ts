/**
 * The embedding models the platform knows per provider kind, with every width each
 * can serve — what `GET /v1/providers/{id}/embedding-models` lists and what a
 * knowledge base's model is checked against without calling the provider.
 */
import { BUILTIN_EMBEDDING_MODELS } from "./gateway.js";
import { HASH_EMBEDDING_DIMENSIONS, HASH_EMBEDDING_MODEL } from "./hash-embedding.js";
import { PROVIDER_KINDS, type ProviderType } from "./provider-kinds.js";

export interface EmbeddingCatalogue {
  /** One entry per model and width. */
  models: Array<{ id: string; dimensions: number }>;
  supportedDimensions: number[];
}

/**
 * Vendor A's embedding models. Both kinds that serve embeddings are vendor A: hosted-a
 * by model id, cloud-a by deployment name — a cloud-a deployment is catalogued when it
 * is named after the model it runs (docs/knowledge-bases.md K3).
 */
const VENDOR_A_EMBEDDING_MODELS: ReadonlyArray<{ id: string; dimensions: readonly number[] }> = [
  { id: "text-embedding-3-small", dimensions: [512, 1536] },
  { id: "text-embedding-3-large", dimensions: [256, 1024, 1536, 3072] },
  { id: "text-embedding-ada-002", dimensions: [1536] },
];

/** The catalogue of a provider kind, or of `builtin` (the vendor-A names only with a built-in model service). */
export function embeddingCatalogue(
  kind: ProviderType | "builtin",
  builtinConfigured: boolean,
): EmbeddingCatalogue {
  if (kind !== "builtin")
    return catalogueOf(PROVIDER_KINDS[kind].embeddings ? VENDOR_A_EMBEDDING_MODELS : []);
  const builtinNames: readonly string[] = builtinConfigured ? BUILTIN_EMBEDDING_MODELS : [];
  return catalogueOf([
    { id: HASH_EMBEDDING_MODEL, dimensions: [HASH_EMBEDDING_DIMENSIONS] },
    ...VENDOR_A_EMBEDDING_MODELS.filter((model) => builtinNames.includes(model.id)),
  ]);
}

function catalogueOf(
  models: ReadonlyArray<{ id: string; dimensions: readonly number[] }>,
): EmbeddingCatalogue {
  const entries = models.flatMap((m) => m.dimensions.map((dimensions) => ({ id: m.id, dimensions })));
  return {
    models: entries,
    supportedDimensions: [...new Set(entries.map((e) => e.dimensions))].sort((a, b) => a - b),
  };
}
