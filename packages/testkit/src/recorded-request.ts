import type { IncomingMessage } from "node:http";
import type { JsonValue } from "./json.js";

/**
 * How an exchange ended: still being answered, answered in full, the client went away first
 * (what a gateway must cause when its own caller disconnects), or the script cut the connection.
 */
export type RequestOutcome = "pending" | "completed" | "aborted" | "hung-up";

/** One file part of a multipart body; the bytes stay in {@link RawBody.bytes}. */
export interface FormFileSummary {
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
}

/** The parts of a `multipart/form-data` body. */
export interface FormSummary {
  readonly fields: Readonly<Record<string, string>>;
  readonly files: readonly FormFileSummary[];
}

/** The request body as it arrived. */
export interface RawBody {
  readonly contentType: string | undefined;
  readonly size: number;
  readonly bytes: Buffer;
  /** The body decoded as UTF-8 when its content type is textual (JSON, `text/*`, url-encoded). */
  readonly text?: string;
  /** Fields and file summaries when the body is `multipart/form-data` and parses. */
  readonly form?: FormSummary;
}

/** Everything an upstream saw of one request, in arrival order in `upstream.requests`. */
export interface RecordedRequest {
  readonly method: string;
  /** The URL path without the query string, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Header names in lower case; repeated headers joined with `", "`. */
  readonly headers: Readonly<Record<string, string>>;
  /** Query parameters; for a repeated name the last value wins. */
  readonly query: Readonly<Record<string, string>>;
  /** The parsed body when it was declared as JSON and parsed; otherwise `undefined` (see `raw`). */
  readonly body: JsonValue | undefined;
  readonly raw: RawBody;
  readonly receivedAt: Date;
  /** Updated while the exchange runs; use `upstream.waitFor` to await a change. */
  readonly outcome: RequestOutcome;
}

/** The recording as the upstream holds it: only the upstream moves `outcome` on. */
export type MutableRecordedRequest = Omit<RecordedRequest, "outcome"> & { outcome: RequestOutcome };

const TEXTUAL = /^(text\/|application\/(json|[\w.+-]*\+json|x-www-form-urlencoded|xml))/i;

/** Builds the recording of a request whose body has been read in full. */
export async function recordRequest(
  message: IncomingMessage,
  bytes: Buffer,
  receivedAt: Date,
): Promise<MutableRecordedRequest> {
  const url = new URL(message.url ?? "/", "http://127.0.0.1");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const contentType = headers["content-type"];
  const text = contentType !== undefined && TEXTUAL.test(contentType) ? bytes.toString("utf8") : undefined;
  const form =
    contentType !== undefined && /^multipart\/form-data/i.test(contentType)
      ? await parseMultipart(contentType, bytes)
      : undefined;
  return {
    method: message.method ?? "GET",
    path: url.pathname,
    headers,
    query: Object.fromEntries(url.searchParams),
    body: contentType !== undefined && /json/i.test(contentType) ? parseJson(text) : undefined,
    raw: {
      contentType,
      size: bytes.length,
      bytes,
      ...(text === undefined ? {} : { text }),
      ...(form === undefined ? {} : { form }),
    },
    receivedAt,
    outcome: "pending",
  };
}

function parseJson(text: string | undefined): JsonValue | undefined {
  if (text === undefined || text.length === 0) return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

// The platform's own multipart parser (undici behind `Request`) rather than a hand-rolled one.
async function parseMultipart(contentType: string, bytes: Buffer): Promise<FormSummary | undefined> {
  try {
    const form = await new Request("http://127.0.0.1/", {
      method: "POST",
      headers: { "content-type": contentType },
      body: bytes,
    }).formData();
    const fields: Record<string, string> = {};
    const files: FormFileSummary[] = [];
    for (const [field, value] of form.entries()) {
      if (typeof value === "string") fields[field] = value;
      else files.push({ field, filename: value.name, contentType: value.type, size: value.size });
    }
    return { fields, files };
  } catch {
    return undefined;
  }
}
