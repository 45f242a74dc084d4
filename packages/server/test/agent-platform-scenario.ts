/**
 * The scenario of issue #19's end-to-end test (agent-platform-e2e.test.ts): an agent whose
 * definition binds an imported skill, has a bearer connector (the MCP fixture) attached and
 * configures `platform.bash` with `approval: "pause"`. The scripted model opens the skill,
 * calls two connector tools, then runs one bash command that copies a skill file into
 * `/workspace/out.txt` (which pauses for approval); a later turn reads the file back.
 */
import type { Upstream } from "@groundwork/testkit";
import { skillMd } from "./skill-zips.js";

export const AGENT = "analyst";
export const MODEL = `agent/${AGENT}`;
export const SKILL = "report-kit";
export const SERVER_LABEL = "files";
export const TOKEN = "e2e-bearer-token-7c1d";
export const CHAT_URL = "https://chat.example";

export const SKILL_FILES: Record<string, string> = {
  "SKILL.md": skillMd(SKILL, "Write short reports").replace(
    "Use it well.",
    "Copy the header template first.",
  ),
  "templates/header.txt": "REPORT HEADER\n",
};

export const AGENT_DEFINITION = {
  name: AGENT,
  model: "gw-chat-1",
  instructions: "Write reports for the user.",
  skills: [{ name: SKILL }],
  tools: [{ type: "platform.bash", approval: "pause" }],
  hitlPolicy: { version: 1, default: "allow" },
};

export function connectorBody(url: string, agentId: string): Record<string, unknown> {
  return { serverLabel: SERVER_LABEL, url, authKind: "bearer", agentIds: [agentId] };
}

export const WRITE_COMMAND = `cp /skills/${SKILL}/templates/header.txt /workspace/out.txt && echo 'body line' >> /workspace/out.txt && cat /workspace/out.txt`;
export const WRITTEN = "REPORT HEADER\nbody line\n";
export const READ_COMMAND = "cat /workspace/out.txt";

/** The model's script for the first turn: skill, connector tools, bash (pauses), then the answer. */
export function scriptFirstTurn(upstream: Upstream): void {
  upstream.enqueue(
    { toolCalls: [{ id: "k1", name: "platform_skill", arguments: { name: SKILL } }] },
    {
      toolCalls: [
        { id: "c1", name: `${SERVER_LABEL}__whoami`, arguments: {} },
        { id: "c2", name: `${SERVER_LABEL}__echo`, arguments: { text: "numbers" } },
      ],
    },
    { toolCalls: [{ id: "b1", name: "platform_bash", arguments: { command: WRITE_COMMAND } }] },
    { text: "Report written." },
  );
}

/** The model's script for a later turn: bash reads the file back (pauses), then the answer. */
export function scriptLaterTurn(upstream: Upstream): void {
  upstream.enqueue(
    { toolCalls: [{ id: "b2", name: "platform_bash", arguments: { command: READ_COMMAND } }] },
    { text: "The report starts with its header." },
  );
}

/** A tool call record as the run envelope shows it. */
export interface CallView {
  callId: string;
  tool: string;
  status: string;
  output?: string | null;
}

/** The bash output object of a completed `platform_bash` call. */
export function bashOutput(call: CallView | undefined): Record<string, unknown> {
  return JSON.parse(call?.output ?? "null") as Record<string, unknown>;
}

/** The names of the tools the n-th model request offered, and its system message. */
export function modelRequest(upstream: Upstream, n: number): { system: string; tools: string[] } {
  const body = upstream.requests[n]?.body as {
    messages: Array<{ role: string; content: string }>;
    tools?: Array<{ function: { name: string } }>;
  };
  return {
    system: body.messages.find((m) => m.role === "system")?.content ?? "",
    tools: (body.tools ?? []).map((tool) => tool.function.name),
  };
}
