/**
 * Checks an answer's `content` against an elicitation's `requestedSchema` (MCP: a flat
 * object of primitive properties — string with length, format or enum; number/integer
 * with bounds; boolean). Unknown properties are refused; unknown keywords are ignored.
 */

export interface ContentProblem {
  message: string;
  param: string;
}

type Schema = Record<string, unknown>;

const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

export function contentProblem(schema: Schema, content: Record<string, unknown>): ContentProblem | null {
  const properties =
    typeof schema.properties === "object" && schema.properties !== null
      ? (schema.properties as Record<string, Schema>)
      : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [];
  for (const name of required) {
    if (!(name in content)) return { message: `${name} is required`, param: `content.${name}` };
  }
  for (const [name, value] of Object.entries(content)) {
    const property = properties[name];
    const param = `content.${name}`;
    if (property === undefined) return { message: `${name} is not a property of the form`, param };
    const problem = valueProblem(property, value);
    if (problem !== null) return { message: `${name} ${problem}`, param };
  }
  return null;
}

function valueProblem(property: Schema, value: unknown): string | null {
  const enumValues = Array.isArray(property.enum)
    ? property.enum
    : Array.isArray(property.oneOf)
      ? (property.oneOf as Schema[]).map((o) => o.const)
      : undefined;
  switch (property.type) {
    case "string": {
      if (typeof value !== "string") return "must be a string";
      const min = num(property.minLength);
      const max = num(property.maxLength);
      if (min !== undefined && value.length < min) return `must be at least ${min} characters`;
      if (max !== undefined && value.length > max) return `must be at most ${max} characters`;
      if (enumValues !== undefined && !enumValues.includes(value)) return "must be one of the listed values";
      if (property.format === "email" && !/^[^@\s]+@[^@\s]+$/.test(value)) return "must be an email address";
      if (property.format === "uri" && !URL.canParse(value)) return "must be a URI";
      if (property.format === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return "must be a date";
      if (property.format === "date-time" && Number.isNaN(Date.parse(value))) return "must be a date-time";
      return null;
    }
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return `must be a ${property.type}`;
      if (property.type === "integer" && !Number.isInteger(value)) return "must be an integer";
      const min = num(property.minimum);
      const max = num(property.maximum);
      if (min !== undefined && value < min) return `must be at least ${min}`;
      if (max !== undefined && value > max) return `must be at most ${max}`;
      return null;
    }
    case "boolean":
      return typeof value === "boolean" ? null : "must be a boolean";
    case "array": {
      if (!Array.isArray(value)) return "must be an array";
      const items = (
        typeof property.items === "object" && property.items !== null ? property.items : {}
      ) as Schema;
      const allowed = Array.isArray(items.enum)
        ? (items.enum as unknown[])
        : Array.isArray(items.anyOf)
          ? (items.anyOf as Schema[]).map((o) => o.const)
          : undefined;
      if (allowed !== undefined && value.some((v) => !allowed.includes(v))) {
        return "must hold only the listed values";
      }
      return null;
    }
    default:
      return null;
  }
}
