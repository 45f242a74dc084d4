/**
 * Knowledge-base settings (spec document 3, "Knowledge base"): the create/update
 * fields with their ranges and defaults, and the rules between them.
 */
import { invalidRequest } from "@groundwork/core";
import { isTextSearchLanguage, TEXT_SEARCH_LANGUAGES, type TextSearchLanguage } from "./text-analysis.js";

export const CHUNKING_STRATEGIES = ["HIERARCHICAL", "FIXED", "AUTO", "CUSTOM"] as const;
export type ChunkingStrategy = (typeof CHUNKING_STRATEGIES)[number];

/** The one vector width provisioned (spec: "1536 is the provisioned width"). */
export const PROVISIONED_EMBEDDING_DIM = 1536;
export const BUILTIN_PROVIDER_ID = "builtin";

export const LIMITS = {
  description: 4000,
  chunkSize: { min: 50, max: 4000, default: 400 },
  chunkOverlap: { min: 0, max: 2000, default: 50 },
  parentChunkSize: { min: 100, max: 8000, default: 1500 },
  topK: { min: 1, max: 100, default: 8 },
} as const;

/** Reciprocal-rank-fusion constant (Cormack et al. 2009): score = Σ 1 / (k + rank). */
export const RRF_K = 60;

export interface ChunkingSettings {
  chunkingStrategy: ChunkingStrategy;
  chunkSize: number;
  chunkOverlap: number;
  parentChunkSize: number;
}

/** The configuration of a knowledge base, as versioned on every change. */
export interface KnowledgeBaseConfig extends ChunkingSettings {
  name: string;
  slug: string;
  description: string | null;
  embeddingProviderId: string;
  embeddingModel: string;
  embeddingDim: number;
  hybridSearchEnabled: boolean;
  rerankerProviderId: string | null;
  textSearchLanguage: TextSearchLanguage;
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Chunking rules across fields: overlap below the window, parents at least as large as children. */
export function checkChunking(settings: ChunkingSettings): void {
  if (settings.chunkOverlap >= settings.chunkSize) {
    throw invalidRequest(
      `chunkOverlap (${settings.chunkOverlap}) must be smaller than chunkSize (${settings.chunkSize})`,
      { param: "chunkOverlap" },
    );
  }
  const hierarchical = settings.chunkingStrategy === "HIERARCHICAL" || settings.chunkingStrategy === "AUTO";
  if (hierarchical && settings.parentChunkSize < settings.chunkSize) {
    throw invalidRequest(
      `parentChunkSize (${settings.parentChunkSize}) must be at least chunkSize (${settings.chunkSize}) under hierarchical chunking`,
      { param: "parentChunkSize" },
    );
  }
}

export function checkTextSearchLanguage(value: string): TextSearchLanguage {
  if (!isTextSearchLanguage(value)) {
    throw invalidRequest(
      `textSearchLanguage "${value}" is not a text-search configuration; use one of ${TEXT_SEARCH_LANGUAGES.join(", ")}`,
      { param: "textSearchLanguage" },
    );
  }
  return value;
}

export function checkReranker(value: string | null | undefined): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (value === BUILTIN_PROVIDER_ID) {
    throw invalidRequest("There is no built-in reranker: leave rerankerProviderId empty", {
      param: "rerankerProviderId",
    });
  }
  throw invalidRequest("rerankerProviderId is reserved; leave it empty", { param: "rerankerProviderId" });
}

/** `topK` default 8, clamped to 1–100 (a clamp, not an error). */
export function clampTopK(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return LIMITS.topK.default;
  return Math.min(LIMITS.topK.max, Math.max(LIMITS.topK.min, Math.trunc(value)));
}
