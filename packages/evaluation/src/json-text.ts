/** Output text read as JSON, and expected outputs read as text — the two conversions every evaluator shares. */

export type Parsed = { ok: true; value: unknown } | { ok: false };

/** The JSON value of `text`, or `{ok: false}` when it is not JSON. */
export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** An expected output as text: a string as it is, any other JSON value as its JSON text. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? String(value);
}

/**
 * An expected output as a JSON value: a string holding JSON is parsed (datasets often store
 * structured expectations as text), any other value is used as it is.
 */
export function expectedValue(value: unknown): Parsed {
  if (typeof value !== "string") return { ok: true, value };
  return parseJson(value);
}

/** A finite number from a JSON number or a string holding one (after trimming); otherwise null. */
export function numberOf(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string") return null;
  const parsed = parseJson(value.trim());
  return parsed.ok && typeof parsed.value === "number" && Number.isFinite(parsed.value) ? parsed.value : null;
}

/** Text shortened for a comment. */
export function excerpt(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
