/**
 * Post-merge validation (spec document 2, processing rule 3) of a chunked extraction:
 *  - an item whose literal reference text occurs in no chunk text was invented and is removed. The
 *    checked fields are the array's `literal` fieldHints when configured, otherwise its key fields.
 *    Only strings of 3 characters or more are checked (numbers and short codes cannot be told
 *    apart from formatting); an item is removed only when it has such a value and none of its
 *    checked values occurs in any chunk, verbatim or with whitespace runs collapsed.
 *  - required top-level fields that no chunk produced are restored as null, so consumers see the
 *    field; schema validation then reports them with source RESTORED_NULL.
 */
import { appendPointer } from "@groundwork/core";
import type { ItemArray } from "./item-arrays.js";
import { rootSchemaOf } from "./item-arrays.js";
import { isPlainObject } from "./schema-walk.js";

export interface PostValidationReport {
  applied: boolean;
  hallucinatedItemsRemoved: number;
  requiredFieldsRestored: number;
  removedItemKeys: string[];
}

export const MIN_LITERAL_LENGTH = 3;

/**
 * Chunk texts prepared for verbatim search. Identifiers are usually whole words of the text, so a
 * set of the texts' words (as written, and with surrounding punctuation stripped) answers most
 * lookups at once; only values not found there are searched as substrings.
 */
export class ChunkCorpus {
  private readonly raw: readonly string[];
  private collapsed: readonly string[] | null = null;
  private readonly words = new Set<string>();

  constructor(chunkTexts: readonly string[]) {
    this.raw = chunkTexts;
    for (const text of chunkTexts) {
      for (const word of text.split(/\s+/)) {
        if (word === "") continue;
        this.words.add(word);
        const bare = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
        if (bare !== word && bare !== "") this.words.add(bare);
      }
    }
  }

  contains(value: string): boolean {
    if (!/\s/.test(value) && this.words.has(value)) return true;
    if (this.raw.some((text) => text.includes(value))) return true;
    const needle = collapse(value);
    this.collapsed ??= this.raw.map(collapse);
    return this.collapsed.some((text) => text.includes(needle));
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function literalValues(item: Record<string, unknown>, fields: readonly string[]): string[] {
  return fields
    .map((field) => item[field])
    .filter(
      (value): value is string => typeof value === "string" && value.trim().length >= MIN_LITERAL_LENGTH,
    )
    .map((value) => value.trim());
}

/** Removes invented items from the arrays (through `replace`); returns the removed items' keys. */
export function removeInventedItems(arrays: readonly ItemArray[], corpus: ChunkCorpus): string[] {
  const removedKeys: string[] = [];
  for (const array of arrays) {
    if (array.literalFields.length === 0) continue;
    const kept: unknown[] = [];
    let changed = false;
    for (const item of array.items) {
      if (isPlainObject(item)) {
        const values = literalValues(item, array.literalFields);
        if (values.length > 0 && !values.some((value) => corpus.contains(value))) {
          removedKeys.push(values.join(" / "));
          changed = true;
          continue;
        }
      }
      kept.push(item);
    }
    if (changed) array.replace(kept);
  }
  return removedKeys;
}

/** Sets missing required top-level fields to null; returns their pointers. */
export function restoreRequiredFields(jsonSchema: unknown, output: unknown): string[] {
  const root = rootSchemaOf(jsonSchema);
  if (!isPlainObject(output) || !isPlainObject(root) || !Array.isArray(root.required)) return [];
  const restored: string[] = [];
  for (const name of root.required) {
    if (typeof name !== "string" || Object.hasOwn(output, name)) continue;
    output[name] = null;
    restored.push(appendPointer("", name));
  }
  return restored;
}
