import { getAtPointer } from "@groundwork/core";
import { isPlainObject } from "../extraction-config.js";

/**
 * Just enough schema reading for scoring to know which arrays hold items and which fields they
 * declare. Local `$ref`s (`#/$defs/Part`) are followed; anything else is treated as "no information".
 */
export class SchemaNavigator {
  constructor(private readonly root: unknown) {}

  resolve(schema: unknown): Record<string, unknown> | undefined {
    let current = schema;
    // A bounded number of hops keeps a reference cycle from looping.
    for (let hops = 0; hops < 16 && isPlainObject(current); hops++) {
      const ref = current.$ref;
      if (typeof ref !== "string" || !ref.startsWith("#")) return current;
      try {
        current = getAtPointer(this.root, decodeURIComponent(ref.slice(1)));
      } catch {
        return undefined;
      }
    }
    return undefined;
  }

  rootSchema(): Record<string, unknown> | undefined {
    return this.resolve(this.root);
  }

  property(schema: Record<string, unknown> | undefined, name: string): Record<string, unknown> | undefined {
    const properties = schema?.properties;
    return isPlainObject(properties) && Object.hasOwn(properties, name)
      ? this.resolve(properties[name])
      : undefined;
  }

  items(schema: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    return schema === undefined ? undefined : this.resolve(schema.items);
  }

  /** True when the schema describes objects (by `type` or by declaring `properties`). */
  describesObjects(schema: Record<string, unknown> | undefined): boolean {
    if (schema === undefined) return false;
    const { type } = schema;
    return (
      type === "object" ||
      (Array.isArray(type) && type.includes("object")) ||
      isPlainObject(schema.properties)
    );
  }
}
