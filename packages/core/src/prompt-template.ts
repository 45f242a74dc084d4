/**
 * Prompt templates (PLATFORM.md §7): `{{name}}` placeholders, nothing else. No
 * sections, partials or escaping, so a template is a list of literal runs and
 * variable names; braces that do not form a placeholder stay literal, which is
 * why `{{{x}}}` compiles to `{1}`. Prompts and LLM-judge templates both compile
 * through here.
 */
import { invalidRequest } from "./errors.js";

/** `{{ name }}` with optional inner spaces; the name starts with a letter or `_`. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

/** A template split once: literal runs at even indexes, variable names at odd ones. */
export type ParsedTemplate = readonly string[];

export function parseTemplate(template: string): ParsedTemplate {
  return template.split(PLACEHOLDER);
}

/** Distinct variable names in order of first use. */
export function templateVariables(template: string | ParsedTemplate): string[] {
  const parts = typeof template === "string" ? parseTemplate(template) : template;
  const names = new Set<string>();
  for (let index = 1; index < parts.length; index += 2) names.add(parts[index] as string);
  return [...names];
}

/** How a value is written into the text: strings verbatim, numbers and booleans via String(), the rest as JSON. */
export function templateValueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  return JSON.stringify(value) ?? String(value);
}

/** Names the template uses that `variables` lacks, sorted. */
export function missingTemplateVariables(
  templates: ReadonlyArray<string | ParsedTemplate>,
  variables: Readonly<Record<string, unknown>>,
): string[] {
  const missing = new Set<string>();
  for (const template of templates) {
    for (const name of templateVariables(template)) {
      if (!Object.hasOwn(variables, name) || variables[name] === undefined) missing.add(name);
    }
  }
  return [...missing].sort();
}

/** The 400 PLATFORM.md gives for a template variable with no value. */
export function missingVariablesError(missing: readonly string[]) {
  return invalidRequest(
    `Missing value${missing.length === 1 ? "" : "s"} for template variable${missing.length === 1 ? "" : "s"}: ${missing.join(", ")}`,
    { param: "variables", code: "missing_variables" },
  );
}

/**
 * Replaces every placeholder. Throws `missing_variables` naming every missing
 * name; variables the template does not use are ignored.
 */
export function compileTemplate(
  template: string | ParsedTemplate,
  variables: Readonly<Record<string, unknown>>,
): string {
  const parts = typeof template === "string" ? parseTemplate(template) : template;
  if (parts.length === 1) return parts[0] as string;
  const missing = missingTemplateVariables([parts], variables);
  if (missing.length > 0) throw missingVariablesError(missing);
  let text = parts[0] as string;
  for (let index = 1; index < parts.length; index += 2) {
    text += templateValueText(variables[parts[index] as string]) + (parts[index + 1] as string);
  }
  return text;
}
