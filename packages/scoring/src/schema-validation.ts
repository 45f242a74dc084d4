import { createHash } from "node:crypto";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { SchemaValidationReport, SchemaViolation } from "./types.js";

export const MAX_RECORDED_VIOLATIONS = 100;
const CACHE_SIZE = 64;

// ajv-formats is CommonJS; under ESM its default export arrives wrapped or not depending on the loader.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

export interface SchemaValidationOptions {
  /** Pointers of required fields the chunk merge restored as null; their violations are RESTORED_NULL. */
  restoredNullPointers?: readonly string[];
}

/** Every violation found (not only the recorded 100), or null when validation could not run. */
export function collectViolations(
  jsonSchema: unknown,
  output: unknown,
  options: SchemaValidationOptions = {},
): SchemaViolation[] | null {
  const validate = compiledValidator(jsonSchema);
  if (validate === null) return null;
  try {
    if (validate(output)) return [];
  } catch {
    return null;
  }
  const restored = new Set(options.restoredNullPointers ?? []);
  return (validate.errors ?? []).map((error) => toViolation(error, restored));
}

export function validateAgainstSchema(
  jsonSchema: unknown,
  output: unknown,
  options: SchemaValidationOptions = {},
): SchemaValidationReport {
  const violations = collectViolations(jsonSchema, output, options);
  return violations === null ? notAppliedValidation() : toValidationReport(violations);
}

export function notAppliedValidation(): SchemaValidationReport {
  return { applied: false, violationCount: 0, truncated: false, violations: [] };
}

export function toValidationReport(violations: readonly SchemaViolation[]): SchemaValidationReport {
  return {
    applied: true,
    violationCount: violations.length,
    truncated: violations.length > MAX_RECORDED_VIOLATIONS,
    violations: violations.slice(0, MAX_RECORDED_VIOLATIONS),
  };
}

function toViolation(error: ErrorObject, restored: ReadonlySet<string>): SchemaViolation {
  const params = error.params as Record<string, unknown>;
  // ajv anchors `required` on the containing object, which is what the spec asks for.
  const named = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
  return {
    fieldPath: error.instancePath,
    keyword: error.keyword,
    property: typeof named === "string" ? named : null,
    message: error.message ?? `failed ${error.keyword}`,
    source: restored.has(error.instancePath) ? "RESTORED_NULL" : "MODEL",
  };
}

const validators = new Map<string, ValidateFunction | null>();

function compiledValidator(jsonSchema: unknown): ValidateFunction | null {
  let canonical: string;
  try {
    canonical = canonicalJson(jsonSchema);
  } catch {
    return null;
  }
  const key = createHash("sha256").update(canonical).digest("hex");
  if (validators.has(key)) {
    const hit = validators.get(key) ?? null;
    // Re-insert so the Map's insertion order doubles as least-recently-used order.
    validators.delete(key);
    validators.set(key, hit);
    return hit;
  }
  const compiled = compile(jsonSchema);
  validators.set(key, compiled);
  if (validators.size > CACHE_SIZE) {
    const oldest = validators.keys().next().value;
    if (oldest !== undefined) validators.delete(oldest);
  }
  return compiled;
}

function compile(jsonSchema: unknown): ValidateFunction | null {
  if (typeof jsonSchema !== "boolean" && (jsonSchema === null || typeof jsonSchema !== "object")) return null;
  // A version holds a 2020-12 definition; a leftover `$schema` naming an older draft would make ajv
  // refuse the whole schema, so it is read as 2020-12 whatever it says.
  const schema =
    typeof jsonSchema === "object" && !Array.isArray(jsonSchema) && "$schema" in jsonSchema
      ? Object.fromEntries(Object.entries(jsonSchema).filter(([key]) => key !== "$schema"))
      : jsonSchema;
  try {
    // One ajv per schema: customer schemas may reuse the same `$id`, which one shared instance rejects.
    const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, validateFormats: true });
    addFormats(ajv);
    return ajv.compile(schema as object | boolean);
  } catch {
    return null;
  }
}

/** JSON with object keys sorted, so that equal schemas hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError("value is not JSON");
  return text;
}
