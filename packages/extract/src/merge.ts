/**
 * Merges the outputs of the chunks of one extraction, in document order: arrays are concatenated
 * (dedup runs afterwards), nested objects merge field by field, and a scalar keeps the first
 * non-empty value any chunk produced (a later chunk fills what an earlier one left null).
 */
import { isPlainObject, type JsonObject } from "./schema-walk.js";
import { cloneJson, isEmptyValue } from "./values.js";

function mergeInto(target: JsonObject, source: JsonObject): void {
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    const current = target[key];
    if (!Object.hasOwn(target, key) || current === undefined) {
      target[key] = cloneJson(value);
    } else if (Array.isArray(current) && Array.isArray(value)) {
      current.push(...cloneJson(value));
    } else if (isPlainObject(current) && isPlainObject(value)) {
      mergeInto(current, value);
    } else if (isEmptyValue(current) && !isEmptyValue(value)) {
      target[key] = cloneJson(value);
    }
  }
}

export function mergeChunkOutputs(outputs: readonly unknown[]): unknown {
  const present = outputs.filter((output) => output !== undefined && output !== null);
  if (present.length === 0) return null;
  if (present.every(Array.isArray)) return present.flatMap((output) => cloneJson(output as unknown[]));
  let merged: unknown;
  for (const output of present) {
    if (merged === undefined) {
      merged = cloneJson(output);
    } else if (isPlainObject(merged) && isPlainObject(output)) {
      mergeInto(merged, output);
    } else if (isEmptyValue(merged) && !isEmptyValue(output)) {
      merged = cloneJson(output);
    }
  }
  return merged;
}
