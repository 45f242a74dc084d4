/**
 * Request bodies: parsed as JSON and validated with a zod schema. Every failure
 * is a 400 envelope whose `param` names the offending field the way the
 * chat-completions wire format does (`messages[0].content`).
 */
import { invalidRequest } from "@groundwork/core";
import { validate } from "@groundwork/platform";
import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "./env.js";
import { readBodyText } from "./node-request.js";

export { formatParam, validate } from "@groundwork/platform";

export async function readJson(c: Context<AppEnv>): Promise<unknown> {
  const text = await readBodyText(c);
  if (text.trim() === "") throw invalidRequest("Request body is empty; a JSON object was expected");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidRequest("Request body is not valid JSON");
  }
}

/** Reads and validates a JSON body in one step. */
export async function readBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  return validate(schema, await readJson(c));
}

/**
 * Reads a multipart/form-data body. Anything else, or a body that cannot be
 * parsed, is a 400 whose message says what to send; a size error raised while
 * reading (a body limit) passes through with its own status.
 */
export async function readMultipart(c: Context<AppEnv>, expected: string, param: string): Promise<FormData> {
  if (!/^multipart\/form-data/i.test(c.req.header("content-type") ?? "")) {
    throw invalidRequest(`Send ${expected} as multipart/form-data`, { param });
  }
  try {
    return await c.req.raw.formData();
  } catch (error) {
    if (error instanceof Error && "status" in error) throw error;
    throw invalidRequest("The multipart body could not be read", { param });
  }
}
