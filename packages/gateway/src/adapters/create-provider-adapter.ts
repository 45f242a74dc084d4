/** Picks the adapter of a provider kind and applies its defaults and quirks. */
import { invalidRequest } from "@groundwork/core";
import type { ProviderAdapter } from "../adapter.js";
import type { ProviderAccount } from "../ports.js";
import { createAnthropicAdapter } from "./anthropic-adapter.js";
import { createAzureAdapter } from "./azure-adapter.js";
import { createOpenAICompatibleAdapter } from "./openai-compatible-adapter.js";

export const HOSTED_A_DEFAULT_BASE_URL = "https://api.openai.com/v1";

export function createProviderAdapter(
  account: ProviderAccount,
  fetchImpl: typeof globalThis.fetch | undefined,
  timeoutMs?: number,
): ProviderAdapter {
  const { config } = account;
  const transport = {
    ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
  switch (account.type) {
    case "HOSTED_A":
      return createOpenAICompatibleAdapter({
        provider: "hosted-a",
        baseUrl: config.baseUrl ?? HOSTED_A_DEFAULT_BASE_URL,
        apiKey: account.apiKey,
        embeddings: true,
        // The flag forces the vendor's responses protocol; without it, it is used where needed.
        responsesApi: config.useResponsesApi === true ? "always" : "auto",
        ...(config.organizationId === undefined ? {} : { organizationId: config.organizationId }),
        ...transport,
      });
    case "CLOUD_A":
      return createAzureAdapter({
        apiKey: account.apiKey ?? "",
        endpoint: config.endpoint ?? "",
        ...(config.apiVersion === undefined ? {} : { apiVersion: config.apiVersion }),
        ...transport,
      });
    case "HOSTED_B":
      return createAnthropicAdapter({
        apiKey: account.apiKey ?? "",
        ...(config.baseUrl === undefined ? {} : { baseUrl: config.baseUrl }),
        ...(config.version === undefined ? {} : { version: config.version }),
        ...transport,
      });
    case "HOSTED_C":
    case "HOSTED_D":
    case "SELF_HOSTED":
      return createOpenAICompatibleAdapter({
        provider:
          account.type === "SELF_HOSTED"
            ? "self-hosted"
            : account.type === "HOSTED_C"
              ? "hosted-c"
              : "hosted-d",
        baseUrl: config.baseUrl ?? "",
        apiKey: account.apiKey,
        namedToolChoice: account.type !== "HOSTED_D",
        ...transport,
      });
    case "CLOUD_B":
      throw invalidRequest("cloud-b is recognised but cannot be used", { code: "provider_not_supported" });
  }
}
