/**
 * The arrays of items an output holds (top-level array properties, or the root itself for an
 * array-rooted schema) together with what the merge steps need to know about them: the item
 * schema, identifier (key) fields and `literal` fields from the version's extractionConfig.
 */
import { detectKeyFields } from "@groundwork/scoring";
import { isPlainObject, type JsonObject, resolveLocalRef, schemaTypes } from "./schema-walk.js";

/** The group name the extractionConfig uses for the items of an array-rooted schema. */
export const ROOT_PROPERTY = "$root";

export interface ItemArray {
  /** Top-level property name, or `$root`. */
  property: string;
  items: unknown[];
  itemSchema: unknown;
  keyFields: string[];
  /** Fields checked verbatim against the chunk texts by post-merge validation. */
  literalFields: string[];
  /** Writes a new item list back into the output. */
  replace(items: unknown[]): void;
}

function member(value: unknown, key: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

function configuredKeyFields(config: unknown, property: string): string[] | undefined {
  const value = member(member(member(member(config, "validation"), "properties"), property), "keyFields");
  return Array.isArray(value) && value.every((entry) => typeof entry === "string") ? value : undefined;
}

function literalHintFields(config: unknown, property: string): string[] {
  const hints = member(member(member(member(config, "validation"), "properties"), property), "fieldHints");
  if (!isPlainObject(hints)) return [];
  return Object.entries(hints)
    .filter(([, hint]) => member(hint, "scoring") === "literal")
    .map(([field]) => field);
}

/** Key fields of one array's items: configured, else detected from the item schema, else from the items. */
export function keyFieldsFor(
  config: unknown,
  property: string,
  itemSchema: unknown,
  items: readonly unknown[],
): string[] {
  const configured = configuredKeyFields(config, property);
  if (configured !== undefined) return configured;
  if (isPlainObject(itemSchema) && isPlainObject(itemSchema.properties)) return detectKeyFields(itemSchema);
  const sample = items.find(isPlainObject);
  return sample === undefined ? [] : detectKeyFields(sample);
}

export function rootSchemaOf(jsonSchema: unknown): unknown {
  return resolveLocalRef(jsonSchema, jsonSchema);
}

function itemSchemaOf(jsonSchema: unknown, arraySchema: unknown): unknown {
  const resolved = resolveLocalRef(jsonSchema, arraySchema);
  return resolveLocalRef(jsonSchema, member(resolved, "items"));
}

/** Top-level properties the schema declares as arrays. */
export function schemaArrayProperties(jsonSchema: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const properties = member(rootSchemaOf(jsonSchema), "properties");
  if (!isPlainObject(properties)) return out;
  for (const [name, schema] of Object.entries(properties)) {
    const resolved = resolveLocalRef(jsonSchema, schema);
    if (schemaTypes(resolved).includes("array") || isPlainObject(member(resolved, "items"))) {
      out.set(name, itemSchemaOf(jsonSchema, resolved));
    }
  }
  return out;
}

/** The item arrays present in `output` (live views: `replace` writes into `output`). */
export function itemArraysOf(jsonSchema: unknown, output: unknown, config: unknown): ItemArray[] {
  const make = (
    property: string,
    items: unknown[],
    itemSchema: unknown,
    replace: (items: unknown[]) => void,
  ) => {
    const keyFields = keyFieldsFor(config, property, itemSchema, items);
    const hinted = literalHintFields(config, property);
    return {
      property,
      items,
      itemSchema,
      keyFields,
      literalFields: hinted.length > 0 ? hinted : keyFields,
      replace,
    };
  };
  if (Array.isArray(output)) {
    return [
      make(ROOT_PROPERTY, output, itemSchemaOf(jsonSchema, rootSchemaOf(jsonSchema)), (items) => {
        // In place, element by element: spreading a very large array into splice() overflows the stack.
        const next = items === output ? [...items] : items;
        output.length = 0;
        for (const item of next) output.push(item);
      }),
    ];
  }
  if (!isPlainObject(output)) return [];
  const declared = schemaArrayProperties(jsonSchema);
  const arrays: ItemArray[] = [];
  for (const [property, value] of Object.entries(output)) {
    if (!Array.isArray(value)) continue;
    arrays.push(
      make(property, value, declared.get(property), (items) => {
        (output as JsonObject)[property] = items;
      }),
    );
  }
  return arrays;
}
