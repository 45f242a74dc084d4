import { FIELD_HINTS, type FieldHint, isPlainObject } from "./extraction-config.js";

export interface ExtractionConfigCheck {
  valid: boolean;
  errors: string[];
}

/**
 * Structural check of an extractionConfig before support stores it. Rule-level problems (a bad
 * pattern, min above max, an unknown type...) are deliberately not reported here: the spec makes them
 * ERROR outcomes at run time, so a config carrying them is still storable.
 */
export function validateExtractionConfig(config: unknown): ExtractionConfigCheck {
  const errors: string[] = [];
  if (!isPlainObject(config)) {
    return { valid: false, errors: ["extractionConfig must be a JSON object"] };
  }

  if (config.validation !== undefined) checkValidation(config.validation, errors);
  if (config.confidence !== undefined) checkConfidence(config.confidence, errors);
  if (config.rules !== undefined) {
    if (!Array.isArray(config.rules)) {
      errors.push("rules must be an array");
    } else {
      config.rules.forEach((rule, index) => {
        if (!isPlainObject(rule)) errors.push(`rules[${index}] must be an object`);
      });
    }
  }
  return { valid: errors.length === 0, errors };
}

function checkValidation(validation: unknown, errors: string[]): void {
  if (!isPlainObject(validation)) {
    errors.push("validation must be an object");
    return;
  }
  const { enabled, properties } = validation;
  if (enabled !== undefined && enabled !== null && typeof enabled !== "boolean") {
    errors.push("validation.enabled must be a boolean");
  }
  if (properties === undefined) return;
  if (!isPlainObject(properties)) {
    errors.push("validation.properties must be an object");
    return;
  }
  for (const [name, entry] of Object.entries(properties)) {
    const at = `validation.properties.${name}`;
    if (!isPlainObject(entry)) {
      errors.push(`${at} must be an object`);
      continue;
    }
    const { keyFields, fieldHints } = entry;
    if (
      keyFields !== undefined &&
      !(Array.isArray(keyFields) && keyFields.every((field) => typeof field === "string"))
    ) {
      errors.push(`${at}.keyFields must be an array of field names`);
    }
    if (fieldHints === undefined) continue;
    if (!isPlainObject(fieldHints)) {
      errors.push(`${at}.fieldHints must be an object`);
      continue;
    }
    for (const [field, hint] of Object.entries(fieldHints)) {
      if (!isPlainObject(hint) || !FIELD_HINTS.includes(hint.scoring as FieldHint)) {
        errors.push(`${at}.fieldHints.${field} must be {"scoring": ${FIELD_HINTS.join(" | ")}}`);
      }
    }
  }
}

function checkConfidence(confidence: unknown, errors: string[]): void {
  if (!isPlainObject(confidence)) {
    errors.push("confidence must be an object");
    return;
  }
  const { properties } = confidence;
  if (properties === undefined) return;
  if (!isPlainObject(properties)) {
    errors.push("confidence.properties must be an object");
    return;
  }
  for (const [name, entry] of Object.entries(properties)) {
    // The threshold value itself is not checked: the spec ignores a wrong one without warning.
    if (!isPlainObject(entry)) errors.push(`confidence.properties.${name} must be an object`);
  }
}
