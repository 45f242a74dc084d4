/**
 * Validates plain input with a zod schema. Every failure is an invalid-request
 * error whose `param` names the offending field the way the chat-completions
 * wire format does (`messages[0].content`).
 */
import { invalidRequest } from "@groundwork/core";
import { z } from "zod";

export function formatParam(path: ReadonlyArray<PropertyKey>): string | null {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? null : out;
}

export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = issue === undefined ? null : formatParam(issue.path);
  const message = issue === undefined ? "Invalid request body" : issue.message;
  throw invalidRequest(param === null ? message : `${param}: ${message}`, { param });
}

const INSTANT_ERROR = "must be an ISO 8601 instant with an offset or Z, e.g. 2025-01-31T09:15:00.000Z";
/** A query timestamp (PLATFORM.md §1.1): any ISO 8601 instant with an offset or `Z`, as epoch ms. */
export const isoInstant = z
  .union([z.iso.datetime({ offset: true }), z.iso.datetime({ offset: true, precision: -1 })], {
    error: INSTANT_ERROR,
  })
  .transform((text) => Date.parse(text));
