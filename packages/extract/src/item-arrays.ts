/**
 * The arrays of items an output holds (array properties, top-level or inside nested objects, or
 * the root itself for an array-rooted schema) together with what the merge steps need to know
 * about them: the item schema, identifier (key) fields and `literal` fields from the version's
 * extractionConfig (`validation.properties.<p>`, where p is the property name, or the dotted path
 * such as `invoice.lineItems` for an array in a nested object).
 */
import { detectKeyFields } from "@groundwork/scoring";
import { isPlainObject, type JsonObject, resolveLocalRef } from "./schema-walk.js";

/** The group name the extractionConfig uses for the items of an array-rooted schema. */
export const ROOT_PROPERTY = "$root";

export interface ItemArray {
  /** Property name, dotted path for an array in a nested object (`invoice.lineItems`), or `$root`. */
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

/** The schema of one property of an object schema (undefined when it declares none). */
function propertySchemaOf(jsonSchema: unknown, objectSchema: unknown, name: string): unknown {
  return resolveLocalRef(
    jsonSchema,
    member(member(resolveLocalRef(jsonSchema, objectSchema), "properties"), name),
  );
}

/**
 * The item arrays present in `output` (live views: `replace` writes into `output`): the root
 * itself for an array-rooted schema, otherwise every array reached from the root through objects
 * — `lineItems`, and `invoice.lineItems` when the items sit in a nested object, since the chunk
 * merge concatenates arrays at any depth. Arrays inside array items are the items' own fields
 * (merging items fills gaps and never concatenates them), so the walk does not enter arrays.
 */
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
  const arrays: ItemArray[] = [];
  const visit = (object: JsonObject, objectSchema: unknown, path: string) => {
    for (const [name, value] of Object.entries(object)) {
      const property = path === "" ? name : `${path}.${name}`;
      const schema = propertySchemaOf(jsonSchema, objectSchema, name);
      if (Array.isArray(value)) {
        arrays.push(
          make(property, value, itemSchemaOf(jsonSchema, schema), (items) => {
            object[name] = items;
          }),
        );
      } else if (isPlainObject(value)) {
        visit(value, schema, property);
      }
    }
  };
  if (isPlainObject(output)) visit(output, rootSchemaOf(jsonSchema), "");
  return arrays;
}
