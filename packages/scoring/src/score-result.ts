import { attributeSignals } from "./attribution.js";
import { compositeConfidence, provenanceOf } from "./confidence.js";
import {
  type ExtractionConfig,
  isPlainObject,
  readScoringSettings,
  type ScoringSettings,
} from "./extraction-config.js";
import { type FieldGroundings, groundFields, ROOT_GROUP } from "./grounding/ground-output.js";
import { SchemaNavigator } from "./grounding/schema-navigation.js";
import { type RuleRun, runRules, toRuleReport } from "./rules/evaluate-rules.js";
import { collectViolations, notAppliedValidation, toValidationReport } from "./schema-validation.js";
import { setOwn } from "./set-own.js";
import { confidenceSummary, thresholdHints, thresholdProperty } from "./thresholds.js";
import type {
  FieldConfidence,
  FieldEntry,
  ItemEntry,
  ResultScoring,
  RuleOutcome,
  SchemaViolation,
  ScoringReport,
} from "./types.js";

export interface ScoringInput {
  jsonSchema: unknown;
  /** The structured output; never modified. */
  output: unknown;
  inputText?: string | null;
  /**
   * When given, the texts grounding searches (the chunks of a chunked extraction). Spans are still
   * located in `inputText` when that is given too.
   */
  chunkTexts?: readonly string[];
  extractionConfig?: ExtractionConfig | null;
  /** Pointers of required fields the chunk merge restored as null (violation source RESTORED_NULL). */
  restoredNullPointers?: readonly string[];
}

/**
 * Scores one extraction result: schema validation, business rules, grounding, composite confidence and
 * flags. Deterministic and free of I/O; it records findings and never throws on a bad output or config.
 */
export function scoreResult(input: ScoringInput): ResultScoring {
  const settings = readScoringSettings(input.extractionConfig);

  let violations: SchemaViolation[] | null = null;
  if (settings.validationEnabled) {
    const options =
      input.restoredNullPointers === undefined ? {} : { restoredNullPointers: input.restoredNullPointers };
    violations = guarded(() => collectViolations(input.jsonSchema, input.output, options), null);
  }
  const schemaValidation = violations === null ? notAppliedValidation() : toValidationReport(violations);

  // Business rules run whatever validation.enabled says.
  const rulesConfig = isPlainObject(input.extractionConfig) ? input.extractionConfig.rules : undefined;
  const ruleRun = guarded((): RuleRun => runRules(rulesConfig, input.output), {
    applied: false,
    outcomes: [],
  });
  const rules = toRuleReport(ruleRun);

  const texts = searchedTexts(input);
  const scoring =
    settings.validationEnabled && texts !== null
      ? guarded(() => buildScoring(input, texts, settings, violations ?? [], ruleRun.outcomes), null)
      : null;
  return { schemaValidation, rules, scoring };
}

function guarded<T>(step: () => T, fallback: T): T {
  try {
    return step();
  } catch {
    return fallback;
  }
}

/** Null for an image-only extraction: no text to ground against. */
function searchedTexts(input: ScoringInput): readonly string[] | null {
  if (input.chunkTexts !== undefined && input.chunkTexts.length > 0) return input.chunkTexts;
  return typeof input.inputText === "string" ? [input.inputText] : null;
}

function buildScoring(
  input: ScoringInput,
  texts: readonly string[],
  settings: ScoringSettings,
  violations: readonly SchemaViolation[],
  outcomes: readonly RuleOutcome[],
): ScoringReport {
  const grounded = groundFields({
    jsonSchema: input.jsonSchema,
    output: input.output,
    texts,
    extractionConfig: input.extractionConfig ?? null,
    // Spans point into the whole input, also when the basis was searched chunk by chunk.
    ...(typeof input.inputText === "string" ? { spanText: input.inputText } : {}),
  });
  const thresholds = thresholdHints(settings, arrayPropertyTest(input));
  const confidences =
    grounded.scoredFields.length === 0
      ? null
      : guarded(() => confidenceOf(grounded, settings, violations, outcomes), null);

  const fields: Record<string, FieldEntry> = {};
  const items: Record<string, ItemEntry> = {};
  let currentKey: string | null = null;
  let item: ItemEntry | undefined;
  grounded.scoredFields.forEach((field, index) => {
    const entry: FieldEntry = {
      grounding: field.grounding,
      confidence: confidences?.confidence[index] ?? null,
      provenance: confidences?.provenance[index] ?? null,
    };
    if (field.itemKey === null) {
      setOwn(fields, field.name, entry);
      return;
    }
    // An item's fields are contiguous, so one lookup per item is enough.
    if (field.itemKey !== currentKey || item === undefined) {
      currentKey = field.itemKey;
      item = { grounding: grounded.itemGroundings.get(field.itemKey)!, fields: {} };
      setOwn(items, field.itemKey, item);
    }
    setOwn(item.fields, field.name, entry);
  });

  return {
    methods: confidences === null ? ["grounding"] : ["grounding", "confidence"],
    grounding: { score: grounded.score, basis: null },
    thresholds,
    fields,
    items,
    confidence:
      confidences === null
        ? null
        : confidenceSummary(grounded.scoredFields, confidences.confidence, settings),
  };
}

function confidenceOf(
  grounded: FieldGroundings,
  settings: ScoringSettings,
  violations: readonly SchemaViolation[],
  outcomes: readonly RuleOutcome[],
): FieldConfidences {
  const signals = attributeSignals(grounded.scoredFields, violations, outcomes);
  // Two parallel arrays rather than a pair object per field: the summary wants the confidences alone.
  const confidence: FieldConfidence[] = new Array(grounded.scoredFields.length);
  const provenance: Array<FieldEntry["provenance"]> = new Array(grounded.scoredFields.length);
  grounded.scoredFields.forEach((field, index) => {
    const fieldSignals = signals[index]!;
    const computed = compositeConfidence(field.grounding, fieldSignals);
    const threshold = settings.compositeThreshold(thresholdProperty(field));
    confidence[index] = computed;
    provenance[index] = provenanceOf(field.grounding, fieldSignals, computed, threshold);
  });
  return { confidence, provenance };
}

/** Per scored field, by index: its composite confidence and its provenance. */
interface FieldConfidences {
  confidence: FieldConfidence[];
  provenance: Array<FieldEntry["provenance"]>;
}

/** Array properties per the output or the schema; `$root` when the output is an array. */
function arrayPropertyTest(input: ScoringInput): (property: string) => boolean {
  const schemas = new SchemaNavigator(input.jsonSchema);
  const root = schemas.rootSchema();
  return (property) => {
    if (property === ROOT_GROUP) return Array.isArray(input.output);
    if (isPlainObject(input.output) && Array.isArray(input.output[property])) return true;
    const type = schemas.property(root, property)?.type;
    return type === "array" || (Array.isArray(type) && type.includes("array"));
  };
}
