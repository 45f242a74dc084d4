/**
 * The run envelope an agent answer carries, as the tool server returns it: the server's
 * envelope, followed by the answering model, with connector pauses pointed at the chat
 * app (spec document 3, "Agent runs through the tool server"): no tool signs in or answers
 * a connector's question, so the user is sent to `AI_SERVICE_CHAT_URL`.
 */
import type { JsonObject } from "@groundwork/client";

interface PendingConnection {
  serverLabel: string;
  host?: string;
  reason?: string;
}

interface PendingInput {
  inputRequestId: string;
  serverLabel?: string;
}

const listOf = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/** The chat app's page for one connector or one question (the paths of the platform contract, §5.3). */
export const connectPage = (chatUrl: string, serverLabel: string) =>
  `${chatUrl}/connectors/${encodeURIComponent(serverLabel)}`;
export const answerPage = (chatUrl: string, inputRequestId: string) =>
  `${chatUrl}/connector-inputs/${encodeURIComponent(inputRequestId)}`;

export function runEnvelope(response: JsonObject, chatUrl: string): JsonObject {
  const run = (response.run ?? {}) as JsonObject;
  const envelope: JsonObject = { ...run, model: run.model ?? response.model };
  const connections = listOf<PendingConnection>(run.pendingConnections);
  const inputs = listOf<PendingInput>(run.pendingInputs).map((input) => ({
    ...input,
    answerUrl: answerPage(chatUrl, input.inputRequestId),
  }));
  if (inputs.length > 0) envelope.pendingInputs = inputs as unknown as JsonObject[];
  const hint = chatHint(run, connections, inputs, chatUrl, response);
  if (hint !== null) envelope.next = hint;
  return envelope;
}

/** The `next` hint of a pause only the chat app can resolve; null keeps the server's hint. */
function chatHint(
  run: JsonObject,
  connections: PendingConnection[],
  inputs: Array<PendingInput & { answerUrl: string }>,
  chatUrl: string,
  response: JsonObject,
): string | null {
  const answersHere = listOf(run.pendingApprovals).length > 0 || listOf(run.pendingToolCalls).length > 0;
  const steps: string[] = [];
  if (connections.length > 0) {
    const pages = connections.map(
      (c) => `${c.serverLabel} (${c.reason ?? "connect"}): ${connectPage(chatUrl, c.serverLabel)}`,
    );
    steps.push(`Connect in the chat app — ${pages.join("; ")}`);
  }
  if (inputs.length > 0) {
    steps.push(
      `Answer the connector's question in the chat app — ${inputs.map((i) => i.answerUrl).join("; ")}`,
    );
  }
  if (steps.length > 0) {
    steps.push(
      answersHere
        ? "then answer the pending approvals and tool calls with svc_decide_agent_approvals"
        : "then send the request again without a conversation (a connector pause cannot be continued by id through the tool server)",
    );
    return steps.join("; ");
  }
  if (run.status === "requires_tool_output" && !answersHere) {
    // A pause the server could not decode (e.g. a connector call awaiting approval): only
    // the chat app can answer it; name what it waits for.
    const types = [
      ...new Set(listOf<{ type?: string }>(response.output).map((item) => item.type ?? "unknown")),
    ];
    return `The run waits for ${types.length > 0 ? types.join(", ") : "items"} the tool server cannot answer; answer in the chat app at ${chatUrl}`;
  }
  return null;
}
