/**
 * Structural walk over a JSON Schema: visits every subschema with its RFC 6901 pointer, following
 * only the places where the 2020-12 vocabulary holds subschemas, so a property that happens to be
 * called `format` or `pattern` is never mistaken for the keyword.
 */
import { appendPointer } from "@groundwork/core";

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const SINGLE_SUBSCHEMA = [
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "additionalItems",
] as const;
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
const SUBSCHEMA_MAPS = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
] as const;

export function walkSchema(schema: unknown, visit: (node: JsonObject, pointer: string) => void): void {
  const seen = new Set<unknown>();
  const walk = (node: unknown, pointer: string): void => {
    if (!isPlainObject(node) || seen.has(node)) return;
    seen.add(node);
    visit(node, pointer);
    for (const keyword of SINGLE_SUBSCHEMA) walk(node[keyword], appendPointer(pointer, keyword));
    // `items` is a schema in 2020-12 and may be a list in older drafts.
    if (Array.isArray(node.items)) {
      node.items.forEach((entry, index) => {
        walk(entry, appendPointer(appendPointer(pointer, "items"), index));
      });
    } else {
      walk(node.items, appendPointer(pointer, "items"));
    }
    for (const keyword of SUBSCHEMA_LISTS) {
      const list = node[keyword];
      if (Array.isArray(list)) {
        list.forEach((entry, index) => {
          walk(entry, appendPointer(appendPointer(pointer, keyword), index));
        });
      }
    }
    for (const keyword of SUBSCHEMA_MAPS) {
      const map = node[keyword];
      if (isPlainObject(map)) {
        for (const [name, entry] of Object.entries(map)) {
          walk(entry, appendPointer(appendPointer(pointer, keyword), name));
        }
      }
    }
  };
  walk(schema, "");
}

/** Follows a local `$ref` (`#/...`) once or a few times; anything else is returned as it is. */
export function resolveLocalRef(root: unknown, node: unknown): unknown {
  let current = node;
  for (let hops = 0; hops < 8 && isPlainObject(current) && typeof current.$ref === "string"; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith("#")) return current;
    const tokens = ref
      .slice(1)
      .split("/")
      .slice(1)
      .map((token) => decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~"));
    let target: unknown = root;
    for (const token of tokens) {
      target = isPlainObject(target)
        ? target[token]
        : Array.isArray(target)
          ? target[Number(token)]
          : undefined;
    }
    if (target === undefined) return current;
    current = target;
  }
  return current;
}

/** The `type` keyword as a list (empty when absent). */
export function schemaTypes(node: unknown): string[] {
  if (!isPlainObject(node)) return [];
  const { type } = node;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === "string") : [];
}
