/**
 * Resequencing (spec document 2, processing rule 4): position fields of items — names ending in
 * number, index, num, order, sequence or position, or named nr or pos — are renumbered 1..n in
 * array order when their values have gaps or duplicates. Identifier names that merely end in such
 * a word (`partNumber`, `orderNumber`, configured key fields) are identities, not positions, and
 * are never renumbered; neither is a field holding anything but whole numbers (`purchaseOrder:
 * "PO-7"`). A run without gaps or duplicates is left alone even when it does not start at 1, since
 * a document may legitimately start at line 5.
 */
import { isKeyFieldName } from "@groundwork/scoring";
import { isPlainObject } from "./schema-walk.js";

const POSITION_SUFFIX = /(number|index|num|order|sequence|position)$/i;
const POSITION_NAMES = new Set(["nr", "pos"]);

export function isPositionFieldName(name: string): boolean {
  return (POSITION_SUFFIX.test(name) || POSITION_NAMES.has(name.toLowerCase())) && !isKeyFieldName(name);
}

function wholeNumber(value: unknown): number | null {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return null;
}

/** Position fields of the items: matching names whose present values are all whole numbers. */
export function positionFields(items: readonly unknown[], keyFields: readonly string[]): string[] {
  const names = new Set<string>();
  for (const item of items) {
    if (isPlainObject(item)) for (const name of Object.keys(item)) names.add(name);
  }
  return [...names].filter((name) => {
    if (keyFields.includes(name) || !isPositionFieldName(name)) return false;
    let present = 0;
    for (const item of items) {
      if (!isPlainObject(item)) continue;
      const value = item[name];
      if (value === undefined || value === null) continue;
      if (wholeNumber(value) === null) return false;
      present += 1;
    }
    return present > 0;
  });
}

function needsResequencing(items: readonly unknown[], field: string): boolean {
  const values: number[] = [];
  for (const item of items) {
    const value = isPlainObject(item) ? wholeNumber(item[field]) : null;
    if (value === null) return true; // an item without a position is a gap
    values.push(value);
  }
  const sorted = [...values].sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) {
    if ((sorted[i] ?? 0) - (sorted[i - 1] ?? 0) !== 1) return true; // duplicate (0) or gap (>1)
  }
  return false;
}

/** Renumbers in place; returns the fields that were renumbered. */
export function resequenceItems(items: unknown[], keyFields: readonly string[]): string[] {
  const renumbered: string[] = [];
  for (const field of positionFields(items, keyFields)) {
    if (!needsResequencing(items, field)) continue;
    let position = 0;
    for (const item of items) {
      if (!isPlainObject(item)) continue;
      position += 1;
      // Keep the type the model used: a string position stays a string.
      item[field] = typeof item[field] === "string" ? String(position) : position;
    }
    renumbered.push(field);
  }
  return renumbered;
}
