/**
 * Fetches a plugin zip from its `sourceUrl` through the guarded fetch (PLATFORM.md §5.2):
 * http/https only, 30 s, at most 3 redirects (each hop re-checked), at most 10 MiB.
 * Private addresses → 400 `private_network` (unless allowed); anything else that keeps
 * the zip from arriving → 400 `source_unreachable`; a bigger body → 413. Every error
 * names `sourceUrl`.
 */
import { PLUGIN_ZIP_MAX_BYTES } from "@groundwork/agents";
import { DocumentError } from "@groundwork/convert";
import { type GroundworkError, invalidRequest, payloadTooLarge } from "@groundwork/core";
import { fetchSource } from "../conversion/fetch-source.js";

export const PLUGIN_FETCH_TIMEOUT_MS = 30_000;
export const PLUGIN_FETCH_MAX_REDIRECTS = 3;

export interface PluginFetchOptions {
  allowPrivateNetwork: boolean;
  allowPrivateNetworkSetting?: string;
  /** Replaces the guarded transport (tests). */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

function unreachable(message: string): GroundworkError {
  return invalidRequest(message, { param: "sourceUrl", code: "source_unreachable" });
}

export async function fetchPluginZip(url: string, options: PluginFetchOptions): Promise<Uint8Array> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidRequest("sourceUrl must be an absolute http(s) URL", { param: "sourceUrl" });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw invalidRequest(`sourceUrl must use http or https, not ${parsed.protocol}`, { param: "sourceUrl" });
  }
  try {
    const fetched = await fetchSource(
      parsed.href,
      null,
      {
        allowPrivateNetwork: options.allowPrivateNetwork,
        ...(options.allowPrivateNetworkSetting === undefined
          ? {}
          : { allowPrivateNetworkSetting: options.allowPrivateNetworkSetting }),
        maxBytes: PLUGIN_ZIP_MAX_BYTES,
        timeoutMs: options.timeoutMs ?? PLUGIN_FETCH_TIMEOUT_MS,
        maxRedirects: PLUGIN_FETCH_MAX_REDIRECTS,
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      },
      new AbortController().signal,
    );
    return fetched.bytes;
  } catch (error) {
    if (!(error instanceof DocumentError))
      throw unreachable(`The plugin source could not be fetched: ${String(error)}`);
    if (error.code === "limit_exceeded") {
      throw payloadTooLarge(`A plugin zip is at most ${PLUGIN_ZIP_MAX_BYTES} bytes: ${error.message}`, {
        param: "sourceUrl",
      });
    }
    if (error.code === "source_refused" && /loopback, private or link-local/.test(error.message)) {
      throw invalidRequest(error.message, { param: "sourceUrl", code: "private_network" });
    }
    throw unreachable(`The plugin source could not be fetched: ${error.message}`);
  }
}
