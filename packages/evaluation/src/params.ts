/**
 * Params of an evaluator, validated with zod. A failure is a 400 whose `param` names the field
 * under the caller's path (`params.pattern`, or `evaluators[2].params.pattern` for experiments).
 */
import { invalidRequest } from "@groundwork/core";
import { z } from "zod";

/** `passed` = score ≥ passThreshold; every type takes it. */
export function passThreshold(defaultValue: number) {
  return z
    .number()
    .min(0, "must be between 0 and 1")
    .max(1, "must be between 0 and 1")
    .default(defaultValue)
    .describe("passed = score ≥ passThreshold");
}

function paramPath(base: string, path: ReadonlyArray<PropertyKey>): string {
  let out = base;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

export function parseParams<S extends z.ZodType>(schema: S, params: unknown, base: string): z.output<S> {
  const value = params === undefined || params === null ? {} : params;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalidRequest(`${base}: must be an object`, { param: base });
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = paramPath(base, issue?.path ?? []);
  throw invalidRequest(`${param}: ${issue?.message ?? "invalid"}`, { param });
}

/** A params failure found after zod (a pattern that does not compile, a schema ajv refuses). */
export function paramError(base: string, field: string, message: string) {
  const param = `${base}.${field}`;
  return invalidRequest(`${param}: ${message}`, { param });
}
