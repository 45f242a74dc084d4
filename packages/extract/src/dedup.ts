/**
 * Deduplication of merged chunk outputs (spec document 2, processing rule 2). Items that share
 * identifier (key-field) values are grouped: an exact duplicate of a kept item is removed, a
 * partial item that does not contradict a kept item is merged into it (its gaps filled), and items
 * that contradict each other on some field are kept apart — two line items may share a part
 * number, and dropping either would lose data. Items without any identifier value are only
 * removed when they are exact duplicates. Passes repeat until nothing changes, which makes the
 * step idempotent; gap filling never overwrites a value, so no identifier value is ever lost.
 */
import { isPlainObject, type JsonObject } from "./schema-walk.js";
import { canonicalJson, deepEqual, identifierText, isEmptyValue, sameValue } from "./values.js";

export interface DedupCounts {
  itemsRemoved: number;
  itemsMerged: number;
}

export interface DedupOutcome extends DedupCounts {
  items: unknown[];
}

function identifiers(item: JsonObject, keyFields: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const field of keyFields) {
    const text = identifierText(item[field]);
    if (text !== null) out.push([field, text]);
  }
  return out;
}

/** Same item by identity: at least one key field present in both, and every such field equal. */
function sameIdentity(a: JsonObject, b: JsonObject, keyFields: readonly string[]): boolean {
  let shared = 0;
  for (const field of keyFields) {
    const left = identifierText(a[field]);
    const right = identifierText(b[field]);
    if (left === null || right === null) continue;
    if (left !== right) return false;
    shared += 1;
  }
  return shared > 0;
}

/** No field holds two different non-empty values. */
function compatible(a: JsonObject, b: JsonObject): boolean {
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const left = a[field];
    const right = b[field];
    if (isEmptyValue(left) || isEmptyValue(right)) continue;
    if (!sameValue(left, right)) return false;
  }
  return true;
}

/** Fills `target`'s empty fields from `source`; never overwrites a value. */
function fillGaps(target: JsonObject, source: JsonObject): void {
  for (const [field, value] of Object.entries(source)) {
    if (!Object.hasOwn(target, field) || (isEmptyValue(target[field]) && !isEmptyValue(value))) {
      target[field] = value;
    }
  }
}

function pass(items: readonly unknown[], keyFields: readonly string[]): DedupOutcome {
  const kept: unknown[] = [];
  // (field, identifier text) -> kept items carrying it, to find candidates without comparing all pairs.
  const byIdentifier = new Map<string, JsonObject[]>();
  const exact = new Set<string>();
  const index = (item: JsonObject) => {
    for (const [field, text] of identifiers(item, keyFields)) {
      const key = `${field}\u0000${text}`;
      const list = byIdentifier.get(key);
      if (list === undefined) byIdentifier.set(key, [item]);
      else if (!list.includes(item)) list.push(item);
    }
  };
  let itemsRemoved = 0;
  let itemsMerged = 0;
  for (const item of items) {
    const ids = isPlainObject(item) ? identifiers(item, keyFields) : [];
    if (!isPlainObject(item) || ids.length === 0) {
      const text = canonicalJson(item);
      if (exact.has(text)) {
        itemsRemoved += 1;
      } else {
        exact.add(text);
        kept.push(item);
      }
      continue;
    }
    const candidates: JsonObject[] = [];
    for (const [field, text] of ids) {
      for (const candidate of byIdentifier.get(`${field}\u0000${text}`) ?? []) {
        if (!candidates.includes(candidate) && sameIdentity(candidate, item, keyFields))
          candidates.push(candidate);
      }
    }
    if (candidates.some((candidate) => deepEqual(candidate, item))) {
      itemsRemoved += 1;
      continue;
    }
    const host = candidates.find((candidate) => compatible(candidate, item));
    if (host !== undefined) {
      fillGaps(host, item);
      index(host);
      itemsMerged += 1;
      continue;
    }
    const copy = { ...item };
    kept.push(copy);
    index(copy);
  }
  return { items: kept, itemsRemoved, itemsMerged };
}

/** Deduplicates one array of items; the input array and its items are not modified. */
export function dedupItems(items: readonly unknown[], keyFields: readonly string[]): DedupOutcome {
  let current: unknown[] = items.map((item) => (isPlainObject(item) ? { ...item } : item));
  let itemsRemoved = 0;
  let itemsMerged = 0;
  for (;;) {
    const outcome = pass(current, keyFields);
    itemsRemoved += outcome.itemsRemoved;
    itemsMerged += outcome.itemsMerged;
    if (outcome.itemsRemoved === 0 && outcome.itemsMerged === 0)
      return { items: outcome.items, itemsRemoved, itemsMerged };
    current = outcome.items;
  }
}
