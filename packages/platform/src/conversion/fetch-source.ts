/**
 * Fetches an `http` conversion source: the caller's headers go to the source's
 * origin only, redirects are followed by hand (at most 5, http/https only, each
 * hop re-checked), loopback/private/link-local targets are refused unless the
 * private network is allowed, and the body is capped in size and time.
 *
 * The address is checked twice: before the request (for a clear error) and
 * again by the connection itself, whose DNS lookup refuses private addresses. A
 * name that resolves to a public address for the first check and to a private
 * one for the connection (DNS rebinding) is therefore refused too.
 */
import { DocumentError } from "@groundwork/convert";
import {
  DEFAULT_PRIVATE_NETWORK_SETTING,
  guardedFetch,
  privateAddressOf,
  refusedAddressOf,
} from "../network/guarded-network.js";

export interface FetchSourceOptions {
  allowPrivateNetwork: boolean;
  /** How a refusal names the setting that allows private networks (the server: its environment variable). */
  allowPrivateNetworkSetting?: string;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  fetch?: typeof fetch;
}

export interface FetchedSource {
  bytes: Uint8Array;
  filename: string;
  mimeType?: string;
}

async function checkTarget(url: URL, allowPrivateNetwork: boolean, setting: string): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new DocumentError("source_refused", `Only http and https URLs can be fetched, not ${url.protocol}`);
  }
  if (allowPrivateNetwork) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let refused: string | undefined;
  try {
    refused = await privateAddressOf(host);
  } catch {
    throw new DocumentError("fetch_failed", `The host ${host} could not be resolved`);
  }
  if (refused !== undefined) {
    throw new DocumentError(
      "source_refused",
      `${host} resolves to ${refused}, a loopback, private or link-local address; such sources are refused unless ${setting}`,
    );
  }
}

function filenameOf(url: URL, disposition: string | null): string {
  const star = disposition === null ? null : /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition)?.[1];
  if (star) {
    try {
      return decodeURIComponent(star.trim().replace(/^"|"$/g, ""));
    } catch {
      // fall through
    }
  }
  const plain = disposition === null ? null : /filename\s*=\s*"?([^";]+)"?/i.exec(disposition)?.[1];
  if (plain) return plain.trim();
  const last = url.pathname.split("/").filter(Boolean).pop();
  if (last !== undefined) {
    try {
      return decodeURIComponent(last);
    } catch {
      return last;
    }
  }
  return url.hostname;
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new DocumentError(
      "limit_exceeded",
      `The source declares ${declared} bytes; at most ${maxBytes} are fetched`,
    );
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new DocumentError("limit_exceeded", `The source sent more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

export async function fetchSource(
  rawUrl: string,
  headers: Record<string, string> | null,
  options: FetchSourceOptions,
  signal: AbortSignal,
): Promise<FetchedSource> {
  const doFetch = options.fetch ?? guardedFetch(options.allowPrivateNetwork);
  const setting = options.allowPrivateNetworkSetting ?? DEFAULT_PRIVATE_NETWORK_SETTING;
  const limit = AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new DocumentError("fetch_failed", "The source URL is not a valid absolute URL");
  }
  const origin = url.origin;
  for (let hop = 0; ; hop++) {
    await checkTarget(url, options.allowPrivateNetwork, setting);
    let response: Response;
    try {
      response = await doFetch(url, {
        redirect: "manual",
        signal: limit,
        // The caller's headers (often credentials) go to the origin they named, never to a redirect elsewhere.
        headers: url.origin === origin && headers !== null ? headers : {},
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const refused = refusedAddressOf(error);
      if (refused !== undefined) {
        throw new DocumentError(
          "source_refused",
          `${refused.message}, a loopback, private or link-local address; such sources are refused unless ${setting}`,
        );
      }
      if (limit.aborted)
        throw new DocumentError(
          "fetch_failed",
          `The source did not answer within ${options.timeoutMs / 1000} s`,
        );
      throw new DocumentError(
        "fetch_failed",
        `The source could not be fetched: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
      await response.body?.cancel().catch(() => {});
      if (hop >= (options.maxRedirects ?? 5))
        throw new DocumentError("fetch_failed", "The source redirected too many times");
      url = new URL(response.headers.get("location") as string, url);
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new DocumentError(
          "source_refused",
          `The source redirected to a ${url.protocol} URL; only http and https are followed`,
        );
      }
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new DocumentError(
        "fetch_failed",
        `The source answered ${response.status} ${response.statusText}`.trim(),
      );
    }
    let bytes: Uint8Array;
    try {
      bytes = await readCapped(response, options.maxBytes);
    } catch (error) {
      if (error instanceof DocumentError) throw error;
      if (signal.aborted) throw signal.reason;
      throw new DocumentError(
        "fetch_failed",
        `Reading the source failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const mimeType = response.headers.get("content-type") ?? undefined;
    return {
      bytes,
      filename: filenameOf(url, response.headers.get("content-disposition")),
      ...(mimeType === undefined || mimeType.startsWith("application/octet-stream") ? {} : { mimeType }),
    };
  }
}
