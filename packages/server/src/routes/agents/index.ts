/**
 * Agents (spec document 3): management routes under `/v1/agents` and agent runs, which
 * arrive through `POST /v1/responses` with an `agent/…` model (see gateway/responses.ts).
 */
import { toAgentResponse } from "@groundwork/agents";
import type { Principal } from "@groundwork/core";
import type { Gateway } from "@groundwork/gateway";
import type { Store } from "@groundwork/store-sqlite";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env.js";
import { agentRunnerFor } from "./agent-runner.js";
import { type AgentStreamEvent, openAgentStream } from "./agent-stream.js";
import { registerAgentManagementRoutes } from "./management-routes.js";

export {
  AgentRunner,
  type AgentRunnerOptions,
  agentRunnerFor,
  configureAgentRunner,
  isAgentRef,
  readOnlyJudge,
} from "./agent-runner.js";
export { AGENT_STREAM_EVENT_TYPES, type AgentStreamEvent } from "./agent-stream.js";
export { SIGNATURE_HEADER, signBody } from "./tool-executor.js";

export function registerAgentRoutes(app: Hono<AppEnv>): void {
  registerAgentManagementRoutes(app);
}

/** `POST /v1/responses` with an agent model: the response object, or its event stream. */
export async function respondWithAgent(
  store: Store,
  gateway: Gateway,
  principal: Principal,
  raw: unknown,
  signal: AbortSignal | undefined,
): Promise<{ json: unknown } | { events: AsyncIterable<AgentStreamEvent> }> {
  const runner = agentRunnerFor(store, gateway);
  const body = runner.parseBody(raw);
  if (body.stream === true) return { events: await openAgentStream(runner, principal, body, signal) };
  const state = await runner.respond(principal, body, signal === undefined ? {} : { signal });
  return { json: toAgentResponse(state) };
}
