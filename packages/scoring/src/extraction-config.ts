/**
 * The per-version `extractionConfig` set by support. It arrives as stored JSON, so the engine reads it
 * defensively: a value of the wrong type is treated as absent rather than trusted.
 */

export type FieldHint = "system_assigned" | "default_absent" | "literal";

export const FIELD_HINTS: readonly FieldHint[] = ["system_assigned", "default_absent", "literal"];

export interface PropertyValidationConfig {
  /** Compared with grounding scores (flag source LEGACY_GROUNDING). */
  confidenceThreshold?: number;
  /** Identifier fields of the array's items; auto-detected when absent. */
  keyFields?: readonly string[];
  fieldHints?: Readonly<Record<string, { scoring: FieldHint }>>;
}

export interface PropertyConfidenceConfig {
  /** Compared with composite scores (flag source COMPOSITE); a JSON number in [0, 1]. */
  threshold?: number;
}

export interface BusinessRuleConfig {
  id?: string;
  type?: string;
  severity?: string;
  automationBlocker?: boolean | null;
  onFail?: string;
  enabled?: boolean | null;
  failOnMissing?: boolean | null;
  field?: string;
  pattern?: string;
  min?: number;
  max?: number;
  values?: readonly unknown[];
  equals?: { op?: string; operands?: readonly string[] };
  tolerance?: number;
  left?: string;
  right?: string;
  operator?: string;
  format?: string;
}

export interface ExtractionConfig {
  validation?: {
    /** Default true; switches schema validation, grounding and confidence, not business rules. */
    enabled?: boolean | null;
    properties?: Readonly<Record<string, PropertyValidationConfig>>;
  };
  confidence?: {
    properties?: Readonly<Record<string, PropertyConfidenceConfig>>;
  };
  rules?: readonly BusinessRuleConfig[];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function member(value: unknown, key: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** The config as the scoring stages need it, with every wrongly typed value dropped. */
export interface ScoringSettings {
  validationEnabled: boolean;
  /** Configured key fields per property, when configured as an array of strings. */
  keyFields(property: string): readonly string[] | undefined;
  fieldHints(property: string): ReadonlyMap<string, FieldHint>;
  groundingThreshold(property: string): number | null;
  compositeThreshold(property: string): number | null;
  /** Property names that have at least one usable threshold. */
  thresholdProperties(): string[];
}

/** Caches a per-property lookup: scoring asks once per scored field, for a handful of properties. */
function memoized<T>(lookup: (property: string) => T): (property: string) => T {
  const cache = new Map<string, T>();
  return (property) => {
    // One lookup in the common case; `has` only tells a cached undefined from a miss.
    const cached = cache.get(property);
    if (cached !== undefined || cache.has(property)) return cached as T;
    const value = lookup(property);
    cache.set(property, value);
    return value;
  };
}

export function readScoringSettings(config: unknown): ScoringSettings {
  const validation = member(config, "validation");
  const validationProperties = member(validation, "properties");
  const confidenceProperties = member(member(config, "confidence"), "properties");
  const propertyValidation = (property: string): unknown => member(validationProperties, property);

  const groundingThreshold = memoized((property: string): number | null => {
    const value = member(propertyValidation(property), "confidenceThreshold");
    return typeof value === "number" && Number.isFinite(value) ? value : null;
  });
  const compositeThreshold = memoized((property: string): number | null => {
    // The spec: any other type or range is ignored without warning.
    const value = member(member(confidenceProperties, property), "threshold");
    return typeof value === "number" && value >= 0 && value <= 1 ? value : null;
  });

  return {
    validationEnabled: member(validation, "enabled") !== false,
    keyFields(property) {
      const value = member(propertyValidation(property), "keyFields");
      return Array.isArray(value) && value.every((entry) => typeof entry === "string")
        ? (value as string[])
        : undefined;
    },
    fieldHints(property) {
      const hints = new Map<string, FieldHint>();
      const value = member(propertyValidation(property), "fieldHints");
      if (!isPlainObject(value)) return hints;
      for (const [field, hint] of Object.entries(value)) {
        const scoring = member(hint, "scoring");
        if (FIELD_HINTS.includes(scoring as FieldHint)) hints.set(field, scoring as FieldHint);
      }
      return hints;
    },
    groundingThreshold,
    compositeThreshold,
    thresholdProperties() {
      const names = new Set<string>();
      for (const source of [validationProperties, confidenceProperties]) {
        if (isPlainObject(source)) for (const name of Object.keys(source)) names.add(name);
      }
      return [...names].filter(
        (name) => groundingThreshold(name) !== null || compositeThreshold(name) !== null,
      );
    },
  };
}
