import { parsePointer } from "@groundwork/core";
import { type FailedRuleSignal, type FieldSignals, NO_SIGNALS } from "./confidence.js";
import { ROOT_GROUP, type ScoredField } from "./grounding/ground-output.js";
import type { RuleOutcome, SchemaViolation } from "./types.js";

/**
 * Gives each violation and rule outcome to the deepest scored field whose pointer is a prefix of the
 * signal's pointer. Scored fields sit at `/<root field>` or `/<array>/<index>/<field>` (`/<index>/<field>`
 * for an array-rooted output), so a signal is located from its first three tokens, without a table of
 * every field's pointer.
 */
export function attributeSignals(
  fields: readonly ScoredField[],
  violations: readonly SchemaViolation[],
  outcomes: readonly RuleOutcome[],
): FieldSignals[] {
  const signals: Array<CollectedSignals | undefined> = new Array(fields.length);
  const rootFields = new Map<string, number>();
  // Per array property, per element index: the range of that item's fields (they are contiguous).
  const itemRanges = new Map<string, Array<[number, number]>>();
  fields.forEach((field, index) => {
    if (field.group === null || field.itemIndex === null) {
      rootFields.set(field.name, index);
      return;
    }
    let ranges = itemRanges.get(field.group);
    if (ranges === undefined) {
      ranges = [];
      itemRanges.set(field.group, ranges);
    }
    const range = ranges[field.itemIndex];
    if (range === undefined) ranges[field.itemIndex] = [index, index + 1];
    else range[1] = index + 1;
  });
  const arrayRooted = itemRanges.has(ROOT_GROUP);

  const locate = (pointer: string): CollectedSignals | undefined => {
    // Without a `~` there is nothing to unescape, and splitting is all parsing does; most signal
    // pointers take this path, which keeps attribution off the profile. Only the first three tokens
    // matter, so they are cut out one by one rather than splitting the whole pointer into an array.
    let tokens: readonly string[] | PointerTokens;
    if (pointer.includes("~")) {
      try {
        tokens = parsePointer(pointer);
      } catch {
        return undefined;
      }
    } else {
      tokens = firstTokens(pointer);
    }
    let index = rootFields.get(tokens[0] ?? "");
    if (index === undefined) {
      const group = arrayRooted ? ROOT_GROUP : tokens[0];
      const position = arrayRooted ? tokens[0] : tokens[1];
      const name = arrayRooted ? tokens[1] : tokens[2];
      const range =
        group === undefined || position === undefined || !isArrayIndex(position)
          ? undefined
          : itemRanges.get(group)?.[Number(position)];
      if (range === undefined || name === undefined) return undefined;
      for (let candidate = range[0]; candidate < range[1]; candidate++) {
        if (fields[candidate]!.name === name) index = candidate;
      }
    }
    if (index === undefined) return undefined;
    signals[index] ??= { schemaViolations: 0, failedRules: [], passedRules: 0 };
    return signals[index];
  };

  for (const violation of violations) {
    if (violation.fieldPath === "") continue;
    const target = locate(violation.fieldPath);
    if (target !== undefined) target.schemaViolations++;
  }
  for (const outcome of outcomes) {
    if (outcome.verdict !== "PASS" && outcome.verdict !== "FAIL") continue;
    if (!namesOneLocation(outcome.field)) continue;
    const target = locate(outcome.field);
    if (target === undefined) continue;
    if (outcome.verdict === "PASS") target.passedRules++;
    else
      target.failedRules.push({ severity: outcome.severity, automationBlocker: outcome.automationBlocker });
  }
  // Most fields receive no signal; they share one empty, frozen record.
  const result: FieldSignals[] = new Array(signals.length);
  for (let index = 0; index < signals.length; index++) result[index] = signals[index] ?? NO_SIGNALS;
  return result;
}

/** The first three tokens of a pointer; a shorter pointer leaves the rest undefined. */
type PointerTokens = [string | undefined, string | undefined, string | undefined];

/**
 * The first three tokens of a pointer without `~` escapes, as splitting it would give them. Like
 * `pointer.slice(1).split("/")`, the empty pointer yields one empty token.
 */
function firstTokens(pointer: string): PointerTokens {
  const tokens: PointerTokens = [undefined, undefined, undefined];
  let start = 1;
  for (let position = 0; position < 3; position++) {
    const slash = pointer.indexOf("/", start);
    tokens[position] = pointer.slice(start, slash === -1 ? pointer.length : slash);
    if (slash === -1) break;
    start = slash + 1;
  }
  return tokens;
}

/** "0" or a decimal without a leading zero: an array index as a JSON pointer writes it. */
function isArrayIndex(token: string): boolean {
  if (token.length === 0 || (token.length > 1 && token.charCodeAt(0) === 0x30)) return false;
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

interface CollectedSignals {
  schemaViolations: number;
  failedRules: FailedRuleSignal[];
  passedRules: number;
}

/** Wildcard and empty pointers name no single location and are not attributed. */
function namesOneLocation(pointer: string): boolean {
  if (pointer === "") return false;
  if (!pointer.includes("*")) return true;
  try {
    return !parsePointer(pointer).includes("*");
  } catch {
    return false;
  }
}
