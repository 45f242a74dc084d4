/**
 * Validation of provider records per kind (spec document 1, "Provider record"
 * and the config keys table). Unknown config keys are rejected so a typo never
 * silently falls back to a default endpoint.
 */
import { invalidRequest } from "@groundwork/core";
import { isProviderType, PROVIDER_KINDS, PROVIDER_TYPES, type ProviderType } from "./provider-kinds.js";

export interface ProviderConfig {
  baseUrl?: string;
  organizationId?: string;
  useResponsesApi?: boolean;
  endpoint?: string;
  apiVersion?: string;
  version?: string;
}

interface KeyRule {
  required: boolean;
  check: (value: unknown, param: string) => string | boolean;
}

const httpUrl: KeyRule["check"] = (value, param) => url(value, param, /^https?:\/\//);
const httpsUrl: KeyRule["check"] = (value, param) => url(value, param, /^https:\/\//);
const text: KeyRule["check"] = (value, param) => {
  if (typeof value !== "string" || value.trim() === "")
    throw invalidRequest(`${param} must be a non-empty string`, { param });
  return value;
};
const flag: KeyRule["check"] = (value, param) => {
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  throw invalidRequest(`${param} must be a boolean or the string "true" or "false"`, { param });
};

function url(value: unknown, param: string, scheme: RegExp): string {
  if (typeof value !== "string" || !scheme.test(value)) {
    const schemes = scheme.source.includes("s?") ? "http:// or https://" : "https://";
    throw invalidRequest(`${param} must start with ${schemes}`, { param });
  }
  try {
    new URL(value);
  } catch {
    throw invalidRequest(`${param} is not a valid URL`, { param });
  }
  return value.replace(/\/+$/, "");
}

const RULES: Record<ProviderType, Record<string, KeyRule>> = {
  HOSTED_A: {
    baseUrl: { required: false, check: httpUrl },
    organizationId: { required: false, check: text },
    useResponsesApi: { required: false, check: flag },
  },
  CLOUD_A: { endpoint: { required: true, check: httpsUrl }, apiVersion: { required: false, check: text } },
  HOSTED_B: { baseUrl: { required: false, check: httpUrl }, version: { required: false, check: text } },
  HOSTED_C: { baseUrl: { required: true, check: httpUrl } },
  HOSTED_D: { baseUrl: { required: true, check: httpUrl } },
  SELF_HOSTED: { baseUrl: { required: true, check: httpUrl } },
  CLOUD_B: {},
};

export function parseProviderType(value: unknown, param = "provider"): ProviderType {
  if (!isProviderType(value)) {
    throw invalidRequest(`${param} must be one of ${PROVIDER_TYPES.join(", ")}`, { param });
  }
  if (!PROVIDER_KINDS[value].configurable) {
    throw invalidRequest(`${value} is recognised but cannot be configured`, {
      param,
      code: "provider_not_supported",
    });
  }
  return value;
}

/** The normalised config of a kind, or a 400 naming the offending key (`config.<key>`). */
export function validateProviderConfig(type: ProviderType, config: unknown): ProviderConfig {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw invalidRequest("config must be an object (send {} when no setting applies)", { param: "config" });
  }
  const rules = RULES[type];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const rule = rules[key];
    if (rule === undefined) {
      const known = Object.keys(rules);
      throw invalidRequest(
        `config.${key} is not a setting of ${type}${known.length > 0 ? ` (known: ${known.join(", ")})` : ""}`,
        { param: `config.${key}` },
      );
    }
    out[key] = rule.check(value, `config.${key}`);
  }
  for (const [key, rule] of Object.entries(rules)) {
    if (rule.required && out[key] === undefined) {
      throw invalidRequest(`config.${key} is required for ${type}`, { param: `config.${key}` });
    }
  }
  return out as ProviderConfig;
}

/** `apiKey` is required except for SELF_HOSTED, which must omit it. */
export function validateProviderApiKey(type: ProviderType, apiKey: unknown): string | null {
  if (!PROVIDER_KINDS[type].needsApiKey) {
    if (apiKey !== undefined && apiKey !== null) {
      throw invalidRequest(`${type} needs no apiKey; omit it`, { param: "apiKey" });
    }
    return null;
  }
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    throw invalidRequest(`apiKey is required for ${type}`, { param: "apiKey" });
  }
  return apiKey;
}
