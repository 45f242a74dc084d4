/**
 * The messages an extraction sends, the carry-forward summary chunked runs pass from chunk to
 * chunk, and the reading of the model's answer.
 */
import type { ChatContentPart, ChatMessage, ChatRequest } from "@groundwork/core";
import { itemArraysOf } from "./item-arrays.js";
import { type SchemaDelivery, schemaDeliveryFor } from "./schema-delivery.js";
import { isPlainObject } from "./schema-walk.js";
import { identifierText } from "./values.js";

export interface InputImage {
  /** Base64, without a `data:` prefix. */
  data: string;
  mimeType: string;
}

const INSTRUCTIONS = [
  "You extract structured data from the document the user sends.",
  "Answer with one JSON value that follows the JSON Schema, and nothing else.",
  "Use only information the document contains. When the document does not contain a value, use null (or leave an optional field out); never invent values, items or identifiers.",
  "Copy identifiers, names and file names exactly as they are written in the document.",
].join("\n");

export interface PromptInput {
  jsonSchema: Record<string, unknown>;
  schemaName: string;
  model: string;
  text: string | null;
  images: readonly InputImage[];
  /** 1-based part number and count, for chunked runs. */
  part?: { index: number; count: number };
  summary?: string | null;
  maxOutputTokens?: number;
}

/** A `json_schema` name as the chat-completions format allows it: `[A-Za-z0-9_-]{1,64}`. */
export function responseFormatName(schemaName: string): string {
  const name = schemaName
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 64);
  return name === "" ? "extraction" : name;
}

export function buildChatRequest(input: PromptInput): ChatRequest {
  const delivery: SchemaDelivery = schemaDeliveryFor(input.model);
  const system =
    delivery === "prompt-text"
      ? `${INSTRUCTIONS}\nAnswer with raw JSON only: no prose, no Markdown code fences.\nThe JSON Schema the answer must follow:\n${JSON.stringify(input.jsonSchema)}`
      : INSTRUCTIONS;
  const lines: string[] = [];
  if (input.part !== undefined && input.part.count > 1) {
    lines.push(
      `This is part ${input.part.index} of ${input.part.count} of a long document. Extract only what this part contains; consecutive parts overlap slightly.`,
    );
  }
  if (input.summary) lines.push(input.summary);
  if (input.text !== null) {
    lines.push(lines.length > 0 ? `Document part:\n${input.text}` : input.text);
  }
  const text = lines.join("\n\n");
  const content: ChatMessage["content"] =
    input.images.length === 0
      ? text
      : [
          ...(text === "" ? [] : [{ type: "text" as const, text }]),
          ...input.images.map(
            (image): ChatContentPart => ({
              type: "image_url",
              image_url: { url: `data:${image.mimeType};base64,${image.data}` },
            }),
          ),
        ];
  const request: ChatRequest = {
    model: input.model,
    messages: [
      { role: "system", content: system },
      { role: "user", content },
    ],
  };
  if (delivery === "structured-output") {
    request.response_format = {
      type: "json_schema",
      json_schema: { name: responseFormatName(input.schemaName), schema: input.jsonSchema, strict: false },
    };
  }
  if (input.maxOutputTokens !== undefined) request.max_tokens = input.maxOutputTokens;
  return request;
}

export interface SummaryOptions {
  /** Identifiers listed per array (the most recent ones). */
  maxItems: number;
  maxChars: number;
}

function describeItem(item: unknown, keyFields: readonly string[]): string | null {
  if (!isPlainObject(item)) return identifierText(item);
  const parts = keyFields
    .map((field) => [field, identifierText(item[field])] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== null)
    .map(([field, value]) => `${field}=${JSON.stringify(value)}`);
  return parts.length === 0 ? null : parts.join(", ");
}

/**
 * What earlier chunks extracted, for the next chunk: per item array the count and the identifiers
 * of the most recent items (the ones a boundary may have cut), and the top-level values found so
 * far. Plain text, bounded by `maxChars`.
 */
export function carryForwardSummary(
  jsonSchema: unknown,
  mergedSoFar: unknown,
  config: unknown,
  options: SummaryOptions,
): string | null {
  if (mergedSoFar === null || mergedSoFar === undefined) return null;
  const lines: string[] = [];
  for (const array of itemArraysOf(jsonSchema, mergedSoFar, config)) {
    const label = array.property === "$root" ? "items" : `"${array.property}"`;
    const recent = array.items
      .slice(-options.maxItems)
      .map((item) => describeItem(item, array.keyFields))
      .filter((entry): entry is string => entry !== null);
    const last = array.items.at(-1);
    lines.push(
      `- ${label}: ${array.items.length} item(s) so far.` +
        (recent.length > 0 ? ` Most recent identifiers: ${recent.join("; ")}.` : "") +
        (last === undefined ? "" : ` Last item: ${truncate(JSON.stringify(last), 500)}`),
    );
  }
  if (isPlainObject(mergedSoFar)) {
    for (const [key, value] of Object.entries(mergedSoFar)) {
      if (Array.isArray(value) || value === null || value === undefined) continue;
      lines.push(`- "${key}": ${truncate(JSON.stringify(value), 300)}`);
    }
  }
  if (lines.length === 0) return null;
  const header =
    "Already extracted from the earlier parts of this document (context only, do not repeat it):";
  const footer =
    "Do not repeat items listed above. If this part starts in the middle of an item that was cut off at the boundary, output that item once, complete, with the same identifiers. Repeat a top-level value only when this part corrects or completes it.";
  let body = lines.join("\n");
  const budget = Math.max(200, options.maxChars - header.length - footer.length - 2);
  if (body.length > budget) body = `${body.slice(0, budget)}…`;
  return `${header}\n${body}\n${footer}`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Reads JSON from a model answer: raw JSON, fenced JSON, or JSON with text around it. */
export function parseModelJson(content: string | null): { ok: true; value: unknown } | { ok: false } {
  if (content === null) return { ok: false };
  const trimmed = content.trim();
  const attempts = [trimmed];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
  if (fenced?.[1] !== undefined) attempts.push(fenced[1].trim());
  const firstBrace = trimmed.search(/[{[]/);
  const lastBrace = Math.max(trimmed.lastIndexOf("}"), trimmed.lastIndexOf("]"));
  if (firstBrace !== -1 && lastBrace > firstBrace) attempts.push(trimmed.slice(firstBrace, lastBrace + 1));
  for (const attempt of attempts) {
    if (attempt === "") continue;
    try {
      return { ok: true, value: JSON.parse(attempt) as unknown };
    } catch {
      // try the next reading
    }
  }
  return { ok: false };
}
