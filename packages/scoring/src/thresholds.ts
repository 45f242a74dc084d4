import type { ScoringSettings } from "./extraction-config.js";
import type { ScoredField } from "./grounding/ground-output.js";
import { setOwn } from "./set-own.js";
import type { ConfidenceFlag, ConfidenceSummary, FieldConfidence, ThresholdHint } from "./types.js";

export const MAX_RECORDED_FLAGS = 100;

/** The property whose thresholds cover a field: its array property (or `$root`), else its own name. */
export function thresholdProperty(field: ScoredField): string {
  return field.group ?? field.name;
}

/** The hint map: configured thresholds of array properties and `$root` only. */
export function thresholdHints(
  settings: ScoringSettings,
  isArrayProperty: (property: string) => boolean,
): Record<string, ThresholdHint> {
  const hints: Record<string, ThresholdHint> = {};
  for (const property of settings.thresholdProperties()) {
    if (!isArrayProperty(property)) continue;
    setOwn(hints, property, {
      confidenceThreshold: settings.groundingThreshold(property),
      threshold: settings.compositeThreshold(property),
    });
  }
  return hints;
}

/** Flags for every score strictly below its threshold; an equal score passes. */
export function confidenceSummary(
  fields: readonly ScoredField[],
  confidences: readonly FieldConfidence[],
  settings: ScoringSettings,
): ConfidenceSummary {
  const flags: ConfidenceFlag[] = [];
  let flagCount = 0;
  // Only the recorded flags are built; the rest are just counted.
  const flag = (
    field: ScoredField,
    confidence: number,
    threshold: number,
    source: ConfidenceFlag["source"],
  ) => {
    if (flagCount++ < MAX_RECORDED_FLAGS) flags.push({ field: field.key, confidence, threshold, source });
  };
  fields.forEach((field, index) => {
    const property = thresholdProperty(field);
    const legacy = settings.groundingThreshold(property);
    if (legacy !== null && field.grounding.score < legacy)
      flag(field, field.grounding.score, legacy, "LEGACY_GROUNDING");
    const composite = settings.compositeThreshold(property);
    const confidence = confidences[index]!;
    if (composite !== null && confidence.score < composite)
      flag(field, confidence.score, composite, "COMPOSITE");
  });
  return {
    calibrated: false,
    flags,
    flagCount,
    truncated: flagCount > MAX_RECORDED_FLAGS,
  };
}
