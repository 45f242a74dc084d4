/**
 * RFC 6901 JSON pointers, on the `json-pointer` package. The empty string is the
 * document root; `~` is written `~0` and `/` is written `~1`.
 */
import pointer from "json-pointer";

export function escapePointerToken(token: string): string {
  return pointer.escape(token);
}

export function unescapePointerToken(token: string): string {
  return pointer.unescape(token);
}

/** Builds a pointer from reference tokens; array indexes may be given as numbers. */
export function compilePointer(tokens: ReadonlyArray<string | number>): string {
  return pointer.compile(tokens.map(String));
}

/** Splits a pointer into unescaped reference tokens. Throws on a pointer that does not start with `/`. */
export function parsePointer(value: string): string[] {
  return pointer.parse(value);
}

export function isValidPointer(value: string): boolean {
  return value === "" || (value.startsWith("/") && !/~(?![01])/.test(value));
}

/** Appends one reference token to a pointer. */
export function appendPointer(base: string, token: string | number): string {
  return `${base}/${escapePointerToken(String(token))}`;
}

/** The value at `value`'s location, or `undefined` when the location does not exist. */
export function getAtPointer(document: unknown, value: string): unknown {
  let current: unknown = document;
  for (const token of parsePointer(value)) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (current !== null && typeof current === "object") {
      if (!Object.hasOwn(current, token)) return undefined;
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}

/** True when `prefix` addresses `value` itself or one of its ancestors. */
export function isPointerPrefix(prefix: string, value: string): boolean {
  return prefix === "" || value === prefix || value.startsWith(`${prefix}/`);
}
