import { isPlainObject } from "../extraction-config.js";

/**
 * Key-field auto-detection: a field is an identifier when the last word of its name says so
 * (`id`, `sku`, `fileName`, `partNumber`, `vendorName`...). Names that denote a position rather than an
 * identity (`lineNumber`, `pos`, `index`) are left out, because the chunk merge renumbers them.
 */

const IDENTIFIER_WORDS = new Set([
  "id",
  "uuid",
  "guid",
  "key",
  "code",
  "sku",
  "ref",
  "reference",
  "identifier",
  "number",
  "no",
  "num",
  "nr",
  "name",
  "filename",
  "file",
  "path",
  "title",
]);

// Words that only count as identifiers after another word (`partNumber` yes, `number` alone no).
const QUALIFIED_ONLY = new Set(["number", "no", "num", "nr", "key", "code"]);

// `lineNumber`, `itemNo`, `pageNr`... count positions, not identities.
const POSITION_QUALIFIERS = new Set([
  "line",
  "item",
  "row",
  "page",
  "position",
  "pos",
  "sequence",
  "seq",
  "index",
  "idx",
  "entry",
  "step",
  "sort",
]);

// `countryCode`, `currencyCode`... name categories shared by many items, not the item itself.
const CATEGORY_QUALIFIERS = new Set([
  "country",
  "currency",
  "language",
  "lang",
  "postal",
  "zip",
  "post",
  "area",
  "status",
  "type",
  "unit",
  "tax",
  "vat",
]);

const NON_IDENTIFIER_TYPES = new Set(["boolean", "array", "object", "null"]);

/** Splits `partNumber`, `part_number`, `part-number`, `PART NUMBER` and `HTTPUrl` into lower-case words. */
export function fieldNameWords(name: string): string[] {
  return name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

export function isKeyFieldName(name: string): boolean {
  const words = fieldNameWords(name);
  const last = words.at(-1);
  if (last === undefined || !IDENTIFIER_WORDS.has(last)) return false;
  const qualifier = words.at(-2);
  if (qualifier === undefined) return !QUALIFIED_ONLY.has(last);
  if (POSITION_QUALIFIERS.has(qualifier) && last !== "name") return false;
  if (CATEGORY_QUALIFIERS.has(qualifier) && last === "code") return false;
  return true;
}

function looksLikeSchema(value: Record<string, unknown>): boolean {
  const { properties, type } = value;
  if (!isPlainObject(properties)) return false;
  if (type === "object" || (Array.isArray(type) && type.includes("object"))) return true;
  return (
    type === undefined &&
    Object.values(properties).every((entry) => isPlainObject(entry) || typeof entry === "boolean")
  );
}

function schemaTypes(propertySchema: unknown): string[] {
  const type = isPlainObject(propertySchema) ? propertySchema.type : undefined;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === "string") : [];
}

function valueType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * Identifier fields of an item, from the item's JSON Schema (its `properties`) or from a sample item.
 * A field typed only as boolean, array or object is never an identifier.
 */
export function detectKeyFields(itemSchemaOrSample: unknown): string[] {
  if (!isPlainObject(itemSchemaOrSample)) return [];
  if (looksLikeSchema(itemSchemaOrSample)) {
    const properties = itemSchemaOrSample.properties as Record<string, unknown>;
    return Object.keys(properties).filter((name) => {
      const types = schemaTypes(properties[name]);
      return isKeyFieldName(name) && (types.length === 0 || types.some((t) => !NON_IDENTIFIER_TYPES.has(t)));
    });
  }
  // In a sample a null says nothing about the field's type, so only non-null values exclude a field.
  return Object.entries(itemSchemaOrSample)
    .filter(
      ([name, value]) =>
        isKeyFieldName(name) && (value === null || !NON_IDENTIFIER_TYPES.has(valueType(value))),
    )
    .map(([name]) => name);
}
