/**
 * The `model` string decides routing (spec document 1): a bare name runs on the
 * platform's built-in models, `<prefix>/<model>` on the organization's provider
 * of that kind, with the model id after the first `/` passed through unchanged.
 */
import { invalidRequest } from "@groundwork/core";
import { MODEL_PREFIXES, type ProviderKind, providerKindForPrefix } from "./provider-kinds.js";

export type ModelRoute =
  | { kind: "builtin"; model: string }
  | { kind: "provider"; provider: ProviderKind; model: string };

export function parseModelString(model: string, param = "model"): ModelRoute {
  const value = model.trim();
  if (value === "") throw invalidRequest("model must be a non-empty string", { param });
  const slash = value.indexOf("/");
  if (slash === -1) return { kind: "builtin", model: value };
  const prefix = value.slice(0, slash);
  const id = value.slice(slash + 1);
  const provider = providerKindForPrefix(prefix);
  if (provider === undefined) {
    throw invalidRequest(
      `Unknown model prefix "${prefix}". Valid prefixes: ${MODEL_PREFIXES.join(", ")}; or use a built-in model name without a prefix`,
      { param, code: "unknown_model_prefix", details: { validPrefixes: MODEL_PREFIXES } },
    );
  }
  if (id === "") throw invalidRequest(`Model id missing after "${prefix}/"`, { param });
  return { kind: "provider", provider, model: id };
}
