/**
 * What happens to a chat or responses body before it is routed: the model
 * string parsed, the spec's image rules checked, a prompt cache key scoped to
 * the organization for the built-in provider, and the usage surface chosen.
 */
import { createHash } from "node:crypto";
import { type ChatRequest, invalidRequest, type Principal, type UsageSurface } from "@groundwork/core";
import { type ChatRequestBody, imageUrls, toChatRequest } from "./chat-request.js";
import { type ModelRoute, parseModelString } from "./model-string.js";
import {
  isAgentModel,
  type ResponsesRequestBody,
  responsesToChatRequest,
} from "./responses/responses-request.js";

/** A routed chat request ready for its adapter. */
export interface PreparedChat {
  request: ChatRequest;
  route: ModelRoute;
  surface: UsageSurface;
  cacheKeySent: boolean;
}

export function prepareChat(body: ChatRequestBody, principal: Principal): PreparedChat {
  const route = parseModelString(body.model);
  return prepareRequest(toChatRequest(body, route.model), route, principal);
}

/** Image rules, the organization-scoped cache key and the surface, for any routed chat request. */
function prepareRequest(
  request: ChatRequest,
  route: ModelRoute,
  principal: Principal,
  param = "messages",
): PreparedChat {
  const images = imageUrls(request);
  checkImages(images, route, param);
  let cacheKeySent = false;
  if (request.prompt_cache_key !== undefined && route.kind === "builtin") {
    // The built-in provider never sees the customer's value, only a key scoped to the organization.
    request.prompt_cache_key = createHash("sha256")
      .update(`${principal.organizationId}\u0000${request.prompt_cache_key}`)
      .digest("hex");
    cacheKeySent = true;
  }
  return { request, route, surface: images.length > 0 ? "VISION" : "CHAT", cacheKeySent };
}

export function prepareResponses(body: ResponsesRequestBody, principal: Principal): PreparedChat {
  if (isAgentModel(body.model)) {
    // Agent runs belong to the agent runner (@groundwork/agents); the server dispatches them before this.
    throw invalidRequest(
      `"${body.model}" is an agent; the gateway makes direct model calls only (use <prefix>/<model> or a built-in model name)`,
      { param: "model", code: "agent_model" },
    );
  }
  const route = parseModelString(body.model);
  const prepared = prepareRequest(responsesToChatRequest(body, route.model), route, principal, "input");
  return { ...prepared, surface: "RESPONSES" };
}

/** Image rules 3–5 of the spec: https everywhere, and only data: URLs for self-hosted models. */
function checkImages(urls: string[], route: ModelRoute, param: string): void {
  const selfHosted = route.kind === "provider" && route.provider.type === "SELF_HOSTED";
  urls.forEach((url) => {
    const scheme = url.slice(0, url.indexOf(":") + 1).toLowerCase();
    if (selfHosted && scheme !== "data:") {
      throw invalidRequest("self-hosted models accept images only as base64 data: URLs", {
        param,
        code: "invalid_image_url",
      });
    }
    if (scheme !== "https:" && scheme !== "data:") {
      throw invalidRequest("Image URLs must use https (or be base64 data: URLs)", {
        param,
        code: "invalid_image_url",
      });
    }
  });
}
