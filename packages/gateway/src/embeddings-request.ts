/**
 * Validation of `POST /v1/embeddings` bodies with the spec's error table:
 * malformed or mistyped fields and token-id arrays are 400 `invalid_request_error`;
 * more than 2,048 inputs, an empty input and more than 1 MiB in total carry the
 * codes `too_many_inputs`, `empty_input` and `input_too_large`. `dimensions` is
 * checked only for being a positive integer: which widths a model can make is the
 * provider's to say, and its refusal is the spec's `400 upstream_error`, which a
 * cap of our own would turn into a different error.
 */
import { invalidRequest } from "@groundwork/core";
import { z } from "zod";

export const MAX_EMBEDDING_INPUTS = 2048;
export const MAX_EMBEDDING_BYTES = 1024 * 1024;

const schema = z.object({
  model: z.string().min(1),
  input: z.unknown(),
  dimensions: z.number().int().positive().optional(),
  encoding_format: z.enum(["float", "base64"]).optional(),
  user: z.string().max(256).optional(),
});

export interface EmbeddingsBody {
  model: string;
  input: string[];
  dimensions?: number;
  encodingFormat: "float" | "base64";
  user?: string;
}

export function parseEmbeddingsBody(value: unknown): EmbeddingsBody {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue?.path.map(String).join(".") || null;
    throw invalidRequest(`${param ?? "body"}: ${issue?.message ?? "invalid"}`, { param });
  }
  const body = parsed.data;
  const input = readInput(body.input);
  return {
    model: body.model,
    input,
    encodingFormat: body.encoding_format ?? "float",
    ...(body.dimensions === undefined ? {} : { dimensions: body.dimensions }),
    ...(body.user === undefined ? {} : { user: body.user }),
  };
}

function readInput(input: unknown): string[] {
  if (input === undefined) throw invalidRequest("input is required", { param: "input" });
  const list = typeof input === "string" ? [input] : input;
  if (!Array.isArray(list)) {
    throw invalidRequest("input must be a string or an array of strings", { param: "input" });
  }
  if (list.length > 0 && list.every((item) => typeof item === "number" || Array.isArray(item))) {
    throw invalidRequest("Arrays of token ids are not supported; send text", { param: "input" });
  }
  if (list.length === 0)
    throw invalidRequest("input must not be empty", { param: "input", code: "empty_input" });
  if (list.length > MAX_EMBEDDING_INPUTS) {
    throw invalidRequest(`input has ${list.length} items; at most ${MAX_EMBEDDING_INPUTS} are allowed`, {
      param: "input",
      code: "too_many_inputs",
    });
  }
  let bytes = 0;
  list.forEach((item, index) => {
    if (typeof item !== "string") {
      throw invalidRequest(`input[${index}] must be a string`, { param: `input[${index}]` });
    }
    if (item.length === 0) {
      throw invalidRequest(`input[${index}] is empty`, { param: `input[${index}]`, code: "empty_input" });
    }
    bytes += Buffer.byteLength(item, "utf8");
  });
  if (bytes > MAX_EMBEDDING_BYTES) {
    throw invalidRequest(`input is ${bytes} bytes of UTF-8; at most ${MAX_EMBEDDING_BYTES} are allowed`, {
      param: "input",
      code: "input_too_large",
    });
  }
  return list as string[];
}

/** `base64` encoding: each vector as little-endian float32 bytes. */
export function encodeEmbedding(vector: ArrayLike<number>, format: "float" | "base64"): number[] | string {
  if (format === "float") {
    // An indexed copy: Array.from walks a typed array through its iterator (~20× slower at 1536 floats).
    const out = new Array<number>(vector.length);
    for (let i = 0; i < vector.length; i++) out[i] = vector[i] ?? 0;
    return out;
  }
  const buffer = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) buffer.writeFloatLE(vector[i] ?? 0, i * 4);
  return buffer.toString("base64");
}
