/**
 * Schema validation and lint (spec document 2, "Validation rules and lint warnings"). Errors make a
 * definition unusable (the version commit answers 400); warnings are advice and leave `valid` true.
 */
import { escapePointerToken } from "@groundwork/core";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import {
  BUILTIN_PROVIDER,
  PROMPT_ONLY_PROVIDERS,
  STRUCTURED_OUTPUT_LINTED_PROVIDERS,
} from "./schema-delivery.js";
import { isPlainObject, type JsonObject, resolveLocalRef, schemaTypes, walkSchema } from "./schema-walk.js";

// ajv-formats is CommonJS; under ESM its default export arrives wrapped or not depending on the loader.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

export type LintErrorRule = "not-an-object" | "no-schema-keyword" | "invalid-schema";
export type LintWarningRule = "required-non-nullable" | "required-enum" | "min-items" | "provider-rewrite";

export interface SchemaLintError {
  rule: LintErrorRule;
  /** RFC 6901 pointer into the definition; "" is the whole schema. */
  pointer: string;
  message: string;
}

export interface SchemaLintWarning {
  rule: LintWarningRule;
  pointer: string;
  message: string;
  suggestion?: string;
}

export interface SchemaLintResult {
  valid: boolean;
  errors: SchemaLintError[];
  warnings: SchemaLintWarning[];
}

export interface SchemaLintOptions {
  /**
   * Provider prefixes the organization configured (`hosted-a`, `hosted-b`, ...). `cloud-a` is always
   * added: it serves the built-in models.
   */
  providers?: readonly string[];
}

/** Keywords of the 2020-12 vocabularies (and the older drafts' names); one of them makes an object a schema. */
const SCHEMA_KEYWORDS = new Set([
  "$schema",
  "$id",
  "$ref",
  "$dynamicRef",
  "$anchor",
  "$dynamicAnchor",
  "$defs",
  "definitions",
  "type",
  "enum",
  "const",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "required",
  "dependentRequired",
  "dependentSchemas",
  "minProperties",
  "maxProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "minContains",
  "maxContains",
  "minItems",
  "maxItems",
  "uniqueItems",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
]);

/** Constraints the structured-output providers ignore (`minItems` is reported by its own rule). */
export const UNENFORCED_KEYWORDS = [
  "pattern",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
] as const;

export const ESCAPE_VALUE = "insufficient_evidence";

/** Only the errors: what a version commit checks. */
export function schemaDefinitionErrors(jsonSchema: unknown): SchemaLintError[] {
  if (!isPlainObject(jsonSchema)) {
    return [{ rule: "not-an-object", pointer: "", message: "The schema definition must be a JSON object" }];
  }
  if (!Object.keys(jsonSchema).some((key) => SCHEMA_KEYWORDS.has(key))) {
    return [
      {
        rule: "no-schema-keyword",
        pointer: "",
        message:
          "The schema definition must contain at least one JSON Schema keyword (for example type, properties or $schema)",
      },
    ];
  }
  const detail = compileError(jsonSchema);
  return detail === null
    ? []
    : [{ rule: "invalid-schema", pointer: "", message: `Invalid JSON Schema: ${detail}` }];
}

/** Errors and warnings, as `POST /v1/schemas/{id}/validate` answers them. */
export function lintSchema(jsonSchema: unknown, options: SchemaLintOptions = {}): SchemaLintResult {
  const errors = schemaDefinitionErrors(jsonSchema);
  if (errors.length > 0) return { valid: false, errors, warnings: [] };
  const warnings: SchemaLintWarning[] = [];
  walkSchema(jsonSchema, (node, pointer) => {
    requiredWarnings(jsonSchema, node, pointer, warnings);
    if (typeof node.minItems === "number" && node.minItems > 0) {
      warnings.push({
        rule: "min-items",
        pointer: `${pointer}/minItems`,
        message: `minItems ${node.minItems} forces the model to produce at least ${node.minItems} item(s) even when the input has none, which invites invented items; structured-output providers do not enforce it either`,
        suggestion: "Remove minItems (or set it to 0) and let an empty array mean that nothing was found",
      });
    }
  });
  warnings.push(...providerWarnings(jsonSchema, options.providers ?? []));
  return { valid: true, errors: [], warnings };
}

function compileError(schema: JsonObject): string | null {
  // As in scoring: a version holds a 2020-12 definition, so `$schema` naming an older draft is read as 2020-12.
  const { $schema: _ignored, ...rest } = schema;
  try {
    const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, validateFormats: true });
    addFormats(ajv);
    if (!ajv.validateSchema(rest)) {
      return ajv.errorsText(ajv.errors, { dataVar: "schema" });
    }
    ajv.compile(rest);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function isNullable(root: unknown, schema: unknown): boolean | "untyped" {
  const node = resolveLocalRef(root, schema);
  if (!isPlainObject(node)) return "untyped";
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = node[keyword];
    if (Array.isArray(branches)) {
      if (branches.some((branch) => isNullable(root, branch) === true)) return true;
    }
  }
  if (node.const === null) return true;
  if (Array.isArray(node.enum) && node.enum.includes(null)) return true;
  const types = schemaTypes(node);
  if (types.length === 0) return "untyped";
  return types.includes("null");
}

function requiredWarnings(root: unknown, node: JsonObject, pointer: string, out: SchemaLintWarning[]): void {
  const { required, properties } = node;
  if (!Array.isArray(required) || !isPlainObject(properties)) return;
  for (const name of required) {
    if (typeof name !== "string" || !Object.hasOwn(properties, name)) continue;
    const propertyPointer = `${pointer}/properties/${escapePointerToken(name)}`;
    const property = resolveLocalRef(root, properties[name]);
    if (!isPlainObject(property)) continue;
    if (Array.isArray(property.enum)) {
      if (!property.enum.includes(ESCAPE_VALUE) && !property.enum.includes(null)) {
        out.push({
          rule: "required-enum",
          pointer: propertyPointer,
          message: `Required field "${name}" has an enum without an escape value, so the model must pick one of the listed values even when the input supports none of them`,
          suggestion: `Add "${ESCAPE_VALUE}" (or null) to the enum of "${name}"`,
        });
      }
      continue;
    }
    if (isNullable(root, property) === false) {
      const types = schemaTypes(property);
      out.push({
        rule: "required-non-nullable",
        pointer: propertyPointer,
        message: `Required field "${name}" cannot be null, so the model must produce a value even when the input has none, which invites invented values`,
        suggestion: `Make "${name}" nullable ("type": ${JSON.stringify([...types, "null"])}) or remove it from required`,
      });
    }
  }
}

function providerWarnings(schema: unknown, configured: readonly string[]): SchemaLintWarning[] {
  const providers = new Set([...configured, BUILTIN_PROVIDER]);
  const warnings: SchemaLintWarning[] = [];
  for (const prefix of PROMPT_ONLY_PROVIDERS) {
    if (!providers.has(prefix)) continue;
    warnings.push({
      rule: "provider-rewrite",
      pointer: "",
      message: `${prefix} receives the schema as prompt text, so none of its constraints are enforced for ${prefix}/… models`,
      suggestion:
        "Check critical constraints after extraction with business rules in the version's extractionConfig",
    });
  }
  const structured = STRUCTURED_OUTPUT_LINTED_PROVIDERS.filter((prefix) => providers.has(prefix));
  if (structured.length === 0) return warnings;
  const names = structured.join(", ");
  walkSchema(schema, (node, pointer) => {
    for (const keyword of UNENFORCED_KEYWORDS) {
      if (!Object.hasOwn(node, keyword)) continue;
      const rejects = structured.includes("cloud-a") ? " (cloud-a may reject the schema because of it)" : "";
      warnings.push({
        rule: "provider-rewrite",
        pointer: `${pointer}/${keyword}`,
        message: `"${keyword}" is not enforced by the structured output of ${names}${rejects}; violations are recorded after extraction but not prevented`,
        suggestion: `Remove "${keyword}" from the schema and check it with a business rule (REGEX, RANGE or FORMAT) instead`,
      });
    }
  });
  return warnings;
}
