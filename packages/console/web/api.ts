/**
 * Calls the public /v1 API with the signed-in key. The key lives in sessionStorage only
 * (PLATFORM.md §16: never a cookie, never a URL), so it is gone when the tab closes.
 */

const KEY_ITEM = "groundwork.apiKey";

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY_ITEM, key);
}

export function clearKey(): void {
  sessionStorage.removeItem(KEY_ITEM);
}

/** An API error with the envelope's fields (PLATFORM.md §1.1). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }

  /** The text the console shows: status, code and message. */
  describe(): string {
    return `${this.status}${this.code ? ` ${this.code}` : ""}: ${this.message}`;
  }
}

export interface Page<T> {
  content: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

/** One /v1 call; JSON bodies are sent as JSON, FormData as multipart. 204 → null. */
export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  key: string | null = storedKey(),
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const response = await fetch(path, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  if (response.status === 204) return { status: 204, body: null as T };
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!response.ok && response.status !== 207 && response.status !== 422) {
    const error = (parsed as { error?: { message?: string; code?: string } } | null)?.error;
    throw new ApiError(response.status, error?.message ?? response.statusText, error?.code ?? null);
  }
  return { status: response.status, body: parsed as T };
}

export async function get<T>(path: string): Promise<T> {
  return (await api<T>("GET", path)).body;
}

/** What the console shows for a failed call: the API's status, code and message when there are some. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.describe();
  return error instanceof Error ? error.message : String(error);
}
