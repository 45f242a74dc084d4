/**
 * The provider kinds of spec document 1 ("Provider kinds"), with what each one
 * serves and how a JSON Schema reaches it.
 */

export const PROVIDER_TYPES = [
  "HOSTED_A",
  "CLOUD_A",
  "HOSTED_B",
  "HOSTED_C",
  "HOSTED_D",
  "SELF_HOSTED",
  "CLOUD_B",
] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export interface ProviderKind {
  type: ProviderType;
  /** The model-string prefix: `<prefix>/<model>`. */
  prefix: string;
  /** Serves `/v1/embeddings` (only hosted-a and cloud-a do). */
  embeddings: boolean;
  /** Accepts audio transcription requests. */
  transcription: boolean;
  /** Whether an organization can configure it (cloud-b is recognised but never works). */
  configurable: boolean;
  /** Needs an API key (self-hosted servers need none). */
  needsApiKey: boolean;
}

export const PROVIDER_KINDS: Readonly<Record<ProviderType, ProviderKind>> = {
  HOSTED_A: kind("HOSTED_A", "hosted-a", { embeddings: true, transcription: true }),
  CLOUD_A: kind("CLOUD_A", "cloud-a", { embeddings: true, transcription: true }),
  HOSTED_B: kind("HOSTED_B", "hosted-b"),
  HOSTED_C: kind("HOSTED_C", "hosted-c"),
  HOSTED_D: kind("HOSTED_D", "hosted-d"),
  SELF_HOSTED: kind("SELF_HOSTED", "self-hosted", { needsApiKey: false }),
  CLOUD_B: kind("CLOUD_B", "cloud-b", { configurable: false }),
};

function kind(type: ProviderType, prefix: string, overrides: Partial<ProviderKind> = {}): ProviderKind {
  return {
    type,
    prefix,
    embeddings: false,
    transcription: false,
    configurable: true,
    needsApiKey: true,
    ...overrides,
  };
}

export const MODEL_PREFIXES: readonly string[] = PROVIDER_TYPES.map((type) => PROVIDER_KINDS[type].prefix);

export function providerKindForPrefix(prefix: string): ProviderKind | undefined {
  return Object.values(PROVIDER_KINDS).find((k) => k.prefix === prefix);
}

export function isProviderType(value: unknown): value is ProviderType {
  return typeof value === "string" && (PROVIDER_TYPES as readonly string[]).includes(value);
}
