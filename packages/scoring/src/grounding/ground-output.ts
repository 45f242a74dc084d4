import { appendPointer } from "@groundwork/core";
import { averageOfHundredths } from "../decimal.js";
import {
  type ExtractionConfig,
  type FieldHint,
  isPlainObject,
  readScoringSettings,
  type ScoringSettings,
} from "../extraction-config.js";
import { setOwn } from "../set-own.js";
import type { FieldGrounding, GroundingBasis, SourceSpan, TopLevelGrounding } from "../types.js";
import { detectKeyFields, isKeyFieldName } from "./key-fields.js";
import { locateSpans, type SpanRequest } from "./locate-spans.js";
import { codePointLengthUpTo } from "./normalize-text.js";
import { canonicalNumber } from "./number-forms.js";
import { SchemaNavigator } from "./schema-navigation.js";
import { type MatchBasis, searchValues } from "./search-values.js";

export interface GroundingInput {
  jsonSchema?: unknown;
  output: unknown;
  /** The texts searched: the input text, or the chunk texts of a chunked extraction. */
  texts: readonly string[];
  extractionConfig?: ExtractionConfig | null;
  /**
   * The whole input text spans are located in (code-point offsets into it). Defaults to the only
   * searched text; a chunked extraction passes its whole document here, so that spans point into the
   * document rather than a chunk. Null: no spans are located.
   */
  spanText?: string | null;
}

/** One scored field with what later stages need to attribute signals and thresholds to it. */
export interface ScoredField {
  /** Flag key: `<property>[<index>].<field>`, `[<index>].<field>` or the root field name. */
  key: string;
  pointer: string;
  name: string;
  /** The array property (`$root` for an array-rooted output) of an item field; null for a root field. */
  group: string | null;
  /** `<property>[<index>]` or `[<index>]` for an item field; null for a root field. */
  itemKey: string | null;
  /** The element index of an item field; null for a root field. */
  itemIndex: number | null;
  keyField: boolean;
  grounding: FieldGrounding;
}

export interface ItemGrounding {
  grounding: FieldGrounding;
  fields: Record<string, FieldGrounding>;
}

export interface GroundingResult {
  grounding: TopLevelGrounding;
  fields: Record<string, FieldGrounding>;
  items: Record<string, ItemGrounding>;
  /** Every scored field, root fields and item fields in output order. */
  scoredFields: ScoredField[];
}

export const ROOT_GROUP = "$root";
const KEY_FIELD_WEIGHT = 3;
const MIN_SEARCHED_LENGTH = 3;

const SCORES: Record<GroundingBasis, number> = {
  exact_match: 1,
  normalized_match: 0.9,
  partial_match: 0.8,
  unverifiable: 0.5,
  not_found: 0.1,
  default_absent: 0.8,
  system_assigned: 1,
};

/**
 * A scored field. Its flag key and pointer are strings made when read: a report of 10,000 fields reads
 * the key only of the few flagged ones and the pointer of none, and making two strings per field up
 * front was a fifth of what grounding allocated.
 */
class Field implements ScoredField {
  constructor(
    readonly name: string,
    readonly group: string | null,
    readonly itemKey: string | null,
    readonly itemIndex: number | null,
    readonly keyField: boolean,
    /** The pointer of the array an item field's item is in ("" for the root or a root field). */
    private readonly arrayPointer: string,
    public grounding: FieldGrounding,
  ) {}

  get key(): string {
    return this.itemKey === null ? this.name : `${this.itemKey}.${this.name}`;
  }

  get pointer(): string {
    const field = appendPointer("", this.name);
    return this.itemIndex === null ? field : `${appendPointer(this.arrayPointer, this.itemIndex)}${field}`;
  }
}

/** The fields, and beside them what grounding needs but the report must not carry: value and hint. */
interface Slots {
  fields: ScoredField[];
  values: unknown[];
  hints: Array<FieldHint | undefined>;
}

// Placeholder until the search has run; every field gets its real grounding before it is returned.
const PENDING: FieldGrounding = Object.freeze({ score: 0, basis: "unverifiable" });

export function groundOutput(input: GroundingInput): GroundingResult {
  const { scoredFields, itemGroundings, score } = groundFields(input);
  const fields: Record<string, FieldGrounding> = {};
  const items: Record<string, ItemGrounding> = {};
  for (const field of scoredFields) {
    if (field.itemKey === null) {
      setOwn(fields, field.name, field.grounding);
      continue;
    }
    let item = items[field.itemKey];
    if (item === undefined) {
      item = { grounding: itemGroundings.get(field.itemKey)!, fields: {} };
      setOwn(items, field.itemKey, item);
    }
    setOwn(item.fields, field.name, field.grounding);
  }
  return { grounding: { score, basis: null }, fields, items, scoredFields };
}

/** Grounding without the report's nested maps, for callers that build their own (scoreResult). */
export interface FieldGroundings {
  scoredFields: ScoredField[];
  itemGroundings: Map<string, FieldGrounding>;
  /** The top-level score. */
  score: number;
}

export function groundFields(input: GroundingInput): FieldGroundings {
  const settings = readScoringSettings(input.extractionConfig);
  const slots = collectSlots(input.output, new SchemaNavigator(input.jsonSchema), settings);

  const { fields, values, hints } = slots;
  const searched: string[] = [];
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    const hint = hints[index];
    if (hint === "system_assigned" || (hint === "default_absent" && isDefaultish(value))) continue;
    // Strings and arrays are walked in place: a one-element array per string value would be garbage.
    if (typeof value === "string") {
      if (isSearchable(value)) searched.push(value);
    } else if (Array.isArray(value)) {
      for (const element of value) if (isSearchable(element)) searched.push(element);
    }
  }
  const matches = searchValues(searched, input.texts);
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    field.grounding = groundSlot(values[index], hints[index], field.keyField, matches);
  }
  const spanText =
    input.spanText === undefined ? (input.texts.length === 1 ? input.texts[0]! : null) : input.spanText;
  if (spanText !== null) attachSpans(fields, values, hints, matches, spanText);
  return summarize(fields);
}

const LOCATED_BASES: ReadonlySet<GroundingBasis> = new Set([
  "exact_match",
  "normalized_match",
  "partial_match",
]);
// A number of one or two digits occurs almost anywhere; where it lies says nothing.
const MIN_LOCATED_NUMBER_DIGITS = 3;

/**
 * Adds `spans` to the groundings of located values (locate-spans.ts). A repeated value of the same
 * field takes the next mention in reading order for each next item or element.
 */
function attachSpans(
  fields: ScoredField[],
  values: readonly unknown[],
  hints: ReadonlyArray<FieldHint | undefined>,
  matches: ReadonlyMap<string, MatchBasis>,
  text: string,
): void {
  const requests: SpanRequest[] = [];
  const owners: number[] = [];
  // One series string per (array, field name), made once: every item's field then hands the locator
  // the same string, hashed once, instead of a fresh concatenation per field.
  const seriesNames = new Map<string, Map<string, string>>();
  // The fields of one array's items come one after the other: its name map is kept at hand.
  let lastGroup: string | null = null;
  let lastNames: Map<string, string> | undefined;
  const seriesOf = (group: string, name: string): string => {
    let names = group === lastGroup ? lastNames : seriesNames.get(group);
    if (names === undefined) {
      names = new Map();
      seriesNames.set(group, names);
    }
    lastGroup = group;
    lastNames = names;
    let series = names.get(name);
    if (series === undefined) {
      series = `${group}\u0000${name}`;
      names.set(name, series);
    }
    return series;
  };
  const request = (element: unknown, owner: number, series: string) => {
    if (!isSearchable(element)) return;
    const basis = matchOf(element, hints[owner], matches);
    if (basis === "not_found") return;
    requests.push({ value: element, series, partial: basis === "partial_match" });
    owners.push(owner);
  };
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    const value = values[index];
    const series = field.group === null ? field.key : seriesOf(field.group, field.name);
    const basis = field.grounding.basis;
    if (LOCATED_BASES.has(basis)) {
      if (typeof value === "string") {
        // A string's basis is its own match (groundSlot), found only when it was searchable: it need
        // not be looked up again.
        requests.push({ value, series, partial: basis === "partial_match" });
        owners.push(index);
      } else if (Array.isArray(value)) for (const element of value) request(element, index, series);
    } else if (typeof value === "number" && field.grounding.basis === "unverifiable") {
      const canonical = canonicalNumber(value);
      // Digits only: the point does not count.
      if (
        canonical === null ||
        canonical.length - (canonical.includes(".") ? 1 : 0) < MIN_LOCATED_NUMBER_DIGITS
      )
        continue;
      requests.push({ value, series, partial: false });
      owners.push(index);
    }
  }
  if (requests.length === 0) return;
  const located = locateSpans(text, requests);
  // Requests were made field by field: each field's spans are one run of consecutive requests.
  for (let request = 0; request < located.length; ) {
    const owner = owners[request]!;
    const first = request;
    let count = 0;
    for (; request < located.length && owners[request] === owner; request++) {
      if (located[request] !== null) count++;
    }
    // Most fields have one value: a literal of one element, where an array grown by a push from
    // empty would reserve room for 17.
    let list: SourceSpan[];
    if (count === 1) {
      let at = first;
      while (located[at] === null) at++;
      list = [located[at]!];
    } else {
      list = [];
      for (let at = first; at < request; at++) if (located[at] !== null) list.push(located[at]!);
    }
    const field = fields[owner]!;
    // A number is unverifiable either way: it carries spans only when it was located.
    if (list.length === 0 && !LOCATED_BASES.has(field.grounding.basis)) continue;
    // Built field by field rather than spread: the shared groundings are frozen, and spreading a frozen
    // object takes the engine's slow path.
    field.grounding = { score: field.grounding.score, basis: field.grounding.basis, spans: list };
  }
}

function collectSlots(output: unknown, schemas: SchemaNavigator, settings: ScoringSettings): Slots {
  const slots: Slots = { fields: [], values: [], hints: [] };
  const root = schemas.rootSchema();
  if (Array.isArray(output)) {
    collectItems(slots, output, "", ROOT_GROUP, "", schemas.items(root), settings);
    return slots;
  }
  if (!isPlainObject(output)) return slots;

  const isRootKey = keyFieldTest(undefined, root);
  for (const [name, value] of Object.entries(output)) {
    if (value === null || value === undefined) continue;
    const propertySchema = schemas.property(root, name);
    const itemSchema = schemas.items(propertySchema);
    if (Array.isArray(value) && holdsItems(value, itemSchema, schemas)) {
      collectItems(slots, value, appendPointer("", name), name, name, itemSchema, settings);
      continue;
    }
    // Root-level fields are scored without hints.
    slots.fields.push(new Field(name, null, null, null, isRootKey(name), "", PENDING));
    slots.values.push(value);
    slots.hints.push(undefined);
  }
  return slots;
}

/** An array holds items when its schema says its elements are objects, or when they all are. */
function holdsItems(
  value: unknown[],
  itemSchema: Record<string, unknown> | undefined,
  schemas: SchemaNavigator,
) {
  if (schemas.describesObjects(itemSchema)) return true;
  return value.length > 0 && value.every(isPlainObject);
}

function collectItems(
  slots: Slots,
  elements: readonly unknown[],
  arrayPointer: string,
  group: string,
  keyPrefix: string,
  itemSchema: Record<string, unknown> | undefined,
  settings: ScoringSettings,
): void {
  const isKey = keyFieldTest(settings.keyFields(group), itemSchema);
  const hints = settings.fieldHints(group);
  for (let index = 0; index < elements.length; index++) {
    const element = elements[index];
    // Only objects have fields; any other element is left to schema validation.
    if (!isPlainObject(element)) continue;
    const itemKey = `${keyPrefix}[${index}]`;
    // Keys, not entries: one array per item instead of one more per field.
    for (const name of Object.keys(element)) {
      const value = element[name];
      if (value === null || value === undefined) continue;
      slots.fields.push(new Field(name, group, itemKey, index, isKey(name), arrayPointer, PENDING));
      slots.values.push(value);
      slots.hints.push(hints.get(name));
    }
  }
}

/** Configured key fields win; otherwise the schema's declared identifiers, else the field name alone. */
function keyFieldTest(
  configured: readonly string[] | undefined,
  schema: Record<string, unknown> | undefined,
): (name: string) => boolean {
  if (configured !== undefined) {
    const keys = new Set(configured);
    return (name) => keys.has(name);
  }
  const declared = isPlainObject(schema?.properties)
    ? (schema.properties as Record<string, unknown>)
    : undefined;
  const detected = new Set(schema === undefined ? [] : detectKeyFields(schema));
  return (name) =>
    declared !== undefined && Object.hasOwn(declared, name) ? detected.has(name) : isKeyFieldName(name);
}

/** Empty or default per the `default_absent` hint: blank string, false, empty array, |n| truncating to 0 or 1. */
export function isDefaultish(value: unknown): boolean {
  if (typeof value === "string") return value.trim() === "";
  if (typeof value === "boolean") return !value;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "number") {
    const truncated = Math.trunc(value);
    return truncated === 0 || truncated === 1;
  }
  return false;
}

function isSearchable(value: unknown): value is string {
  // Counting stops at the minimum: only whether the value reaches it matters.
  return (
    typeof value === "string" && codePointLengthUpTo(value.trim(), MIN_SEARCHED_LENGTH) >= MIN_SEARCHED_LENGTH
  );
}

const MATCH_RANK: Record<MatchBasis, number> = {
  exact_match: 3,
  normalized_match: 2,
  partial_match: 1,
  not_found: 0,
};

function groundSlot(
  value: unknown,
  hint: FieldHint | undefined,
  keyField: boolean,
  matches: ReadonlyMap<string, MatchBasis>,
): FieldGrounding {
  if (hint === "system_assigned") return grounding("system_assigned", keyField);
  if (hint === "default_absent" && isDefaultish(value)) return grounding("default_absent", keyField);
  if (typeof value === "string") {
    if (!isSearchable(value)) return grounding("unverifiable", keyField);
    return grounding(matchOf(value, hint, matches), keyField);
  }
  if (!Array.isArray(value)) return grounding("unverifiable", keyField);
  // An array is as well grounded as its weakest searchable element.
  let weakest: MatchBasis | null = null;
  for (const element of value) {
    if (!isSearchable(element)) continue;
    const basis = matchOf(element, hint, matches);
    if (weakest === null || MATCH_RANK[basis] < MATCH_RANK[weakest]) weakest = basis;
  }
  return grounding(weakest ?? "unverifiable", keyField);
}

function matchOf(text: string, hint: FieldHint | undefined, matches: ReadonlyMap<string, MatchBasis>) {
  const basis = matches.get(text) ?? "not_found";
  // `literal`: the value must appear verbatim; anything less is treated as invented.
  return hint === "literal" && basis !== "exact_match" ? "not_found" : basis;
}

// Groundings are plain values shared by every field with the same outcome (frozen, so that sharing is
// safe); ten thousand fields then allocate no grounding objects at all.
const GROUNDINGS = Object.fromEntries(
  Object.entries(SCORES).map(([basis, score]) => [basis, Object.freeze({ score, basis })]),
) as Record<GroundingBasis, FieldGrounding>;
const KEY_NOT_FOUND: FieldGrounding = Object.freeze({ score: 0, basis: "not_found" });

function grounding(basis: GroundingBasis, keyField: boolean): FieldGrounding {
  return basis === "not_found" && keyField ? KEY_NOT_FOUND : GROUNDINGS[basis];
}

interface Average {
  /** Sum of weight × score in hundredths: table scores are whole hundredths, so this stays exact. */
  weighted: number;
  weight: number;
}

function addTo(average: Average, field: ScoredField): void {
  if (field.grounding.basis === "unverifiable") return;
  const weight = field.keyField ? KEY_FIELD_WEIGHT : 1;
  average.weighted += Math.round(field.grounding.score * 100) * weight;
  average.weight += weight;
}

function averageOf(average: Average): number | null {
  return average.weight === 0 ? null : averageOfHundredths(average.weighted, average.weight);
}

function summarize(scoredFields: ScoredField[]): FieldGroundings {
  const itemGroundings = new Map<string, FieldGrounding>();
  const total: Average = { weighted: 0, weight: 0 };
  // An item's fields are contiguous: each item is summed up when the next one starts.
  let currentKey: string | null = null;
  let average: Average = { weighted: 0, weight: 0 };
  let weakest: FieldGrounding | null = null;
  const closeItem = () => {
    if (currentKey === null) return;
    const score = averageOf(average);
    // With no checkable field the item carries no information: unverifiable, 0.5.
    itemGroundings.set(
      currentKey,
      score === null || weakest === null ? GROUNDINGS.unverifiable : { score, basis: weakest.basis },
    );
  };

  for (const field of scoredFields) {
    addTo(total, field);
    if (field.itemKey === null) continue;
    if (field.itemKey !== currentKey) {
      closeItem();
      currentKey = field.itemKey;
      average = { weighted: 0, weight: 0 };
      weakest = null;
    }
    addTo(average, field);
    if (
      field.grounding.basis !== "unverifiable" &&
      (weakest === null || field.grounding.score < weakest.score)
    ) {
      weakest = field.grounding;
    }
  }
  closeItem();

  // Nothing scored at all reads as 1.0 (the spec's "nothing could be scored" case); scored fields that
  // could none of them be checked carry no information, like an unverifiable item.
  const score = averageOf(total) ?? (scoredFields.length === 0 ? 1 : SCORES.unverifiable);
  return { scoredFields, itemGroundings, score };
}
