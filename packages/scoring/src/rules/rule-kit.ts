import { compilePointer, isValidPointer, parsePointer } from "@groundwork/core";

/** A configuration problem: checked before the document is read, it yields one ERROR for the rule. */
export class RuleConfigError extends Error {}

export interface RuleEmitter {
  verdict(field: string, holds: boolean, expected: string, actual: string): void;
  /** Needed input absent or null: SKIPPED, or FAIL with failOnMissing. */
  missing(field: string, expected: string, actual: string): void;
  /** A value-level ERROR at one location. */
  error(field: string, expected: string, reason: string): void;
}

export type RuleFields = Readonly<Record<string, unknown>>;

export type RuleEvaluator = (rule: RuleFields, document: unknown, emit: RuleEmitter) => void;

const WILDCARD = "*";
const MAX_DISPLAY_LENGTH = 200;

export interface RulePointer {
  text: string;
  tokens: string[];
  /** Index of the `*` token, or -1. */
  wildcard: number;
}

export function parseRulePointer(value: unknown, name: string, allowWildcard: boolean): RulePointer {
  if (typeof value !== "string") throw new RuleConfigError(`${name} must be a JSON pointer string`);
  if (value !== "" && !value.startsWith("/"))
    throw new RuleConfigError(`${name} must be empty or start with '/'`);
  if (!isValidPointer(value)) throw new RuleConfigError(`${name} has an invalid '~' escape`);
  const tokens = parsePointer(value);
  const wildcards = tokens.filter((token) => token === WILDCARD).length;
  if (wildcards > 1) throw new RuleConfigError(`${name} has more than one '*' segment`);
  if (wildcards === 1 && !allowWildcard) throw new RuleConfigError(`${name} must not contain '*'`);
  return { text: value, tokens, wildcard: tokens.indexOf(WILDCARD) };
}

export type Location = { pointer: string; found: true; value: unknown } | { pointer: string; found: false };

function valueAt(document: unknown, tokens: readonly string[]): { found: boolean; value: unknown } {
  let current = document;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= current.length)
        return { found: false, value: undefined };
      current = current[Number(token)];
    } else if (current !== null && typeof current === "object" && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return { found: false, value: undefined };
    }
  }
  return { found: true, value: current };
}

/**
 * The locations a pointer names. Null when nothing resolves (a miss at the configured pointer): a missing
 * key, an index out of range, a wildcard over a non-array or an empty array. An element of a wildcard's
 * array that lacks the rest of the path is a miss at that element's concrete pointer.
 */
export function resolveRulePointer(document: unknown, pointer: RulePointer): Location[] | null {
  if (pointer.wildcard === -1) {
    const { found, value } = valueAt(document, pointer.tokens);
    return found ? [{ pointer: pointer.text, found: true, value }] : null;
  }
  const head = pointer.tokens.slice(0, pointer.wildcard);
  const rest = pointer.tokens.slice(pointer.wildcard + 1);
  const array = valueAt(document, head);
  if (!array.found || !Array.isArray(array.value) || array.value.length === 0) return null;
  // Escaped once, not once per element.
  const headText = compilePointer(head);
  const restText = compilePointer(rest);
  return array.value.map((element, index): Location => {
    const concrete = `${headText}/${index}${restText}`;
    const { found, value } = valueAt(element, rest);
    return found ? { pointer: concrete, found: true, value } : { pointer: concrete, found: false };
  });
}

/**
 * Calls `check` for every present, non-null location and reports the misses, so each rule type only
 * decides what a value means.
 */
export function forEachValue(
  document: unknown,
  pointer: RulePointer,
  expected: string,
  emit: RuleEmitter,
  check: (value: unknown, field: string) => void,
): void {
  const locations = resolveRulePointer(document, pointer);
  if (locations === null) {
    emit.missing(pointer.text, expected, "missing");
    return;
  }
  for (const location of locations) {
    if (!location.found) emit.missing(location.pointer, expected, "missing");
    else if (location.value === null) emit.missing(location.pointer, expected, "null");
    else check(location.value, location.pointer);
  }
}

/** Display text of a value: its JSON text, cut to 200 characters. */
export function display(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_DISPLAY_LENGTH ? `${text.slice(0, MAX_DISPLAY_LENGTH - 1)}…` : text;
}

export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

export function isJsonNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}
