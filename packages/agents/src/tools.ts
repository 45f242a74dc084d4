/**
 * How each tool of a definition is offered to the model and classified for the gate.
 * Built-in tools carry their own parameter schema; `platform.skill` is accepted in
 * definitions but not run by this build (the gate answers FAIL if a model names it).
 * `platform.bash` runs in the platform's simulated shell (PLATFORM.md §6); its
 * `approval: "pause"` makes every call wait for a human (as `requiresConfirmation`).
 */
import type { ChatTool } from "@groundwork/core";
import type { ToolClass, ToolDefinition } from "./definition.js";
import { toolName } from "./definition.js";
import type { GateTool } from "./policy.js";

export interface ResolvedTool {
  name: string;
  definition: ToolDefinition;
  gate: GateTool;
  /** What the model sees; null when the tool is never offered. */
  chat: ChatTool | null;
  /** Set on a connector's tool (`<serverLabel>__<toolName>`): which remote tool a call runs. */
  connector?: { connectorId: string; serverLabel: string; toolName: string };
  /** The catalog the tool belongs to (PLATFORM.md §4.5); `definition` when absent. */
  catalog?: string;
}

const BUILTIN: Record<string, { cls: ToolClass; description: string; parameters: Record<string, unknown> }> =
  {
    file_search: {
      cls: "read",
      description:
        "Search the agent's knowledge bases. Returns numbered passages; cite them in the answer as [1], [2], ….",
      parameters: {
        type: "object",
        properties: { query: { type: "string", description: "What to look for" } },
        required: ["query"],
      },
    },
    "platform.extraction": {
      cls: "read",
      description:
        "Extract structured data from a text with one of the configured extraction schemas. Returns the extracted JSON.",
      parameters: {
        type: "object",
        properties: {
          schemaId: { type: "string", description: "One of the configured schema ids" },
          text: { type: "string", description: "The document text to extract from" },
        },
        required: ["schemaId", "text"],
      },
    },
    "platform.document_convert": {
      cls: "read",
      description: "Convert a document (given as a URL, or as base64 content with a filename) to Markdown.",
      parameters: {
        type: "object",
        properties: {
          url: { type: "string" },
          content: { type: "string", description: "base64 document bytes" },
          filename: { type: "string" },
        },
      },
    },
    "platform.bash": {
      cls: "write",
      description:
        "Run a command in a simulated shell over this conversation's file system (/workspace is writable and kept across turns, /skills read-only, /tmp). Built-ins: cd pwd ls cat head tail wc grep find echo printf mkdir touch rm mv cp sort uniq cut tr diff tee true false; pipes, redirections, && || ;. No network. Returns {stdout, stderr, exitCode, truncated}.",
      parameters: {
        type: "object",
        properties: { command: { type: "string", description: "The shell command (at most 16 KiB)" } },
        required: ["command"],
      },
    },
    "platform.todo": {
      cls: "read",
      description:
        "Keep a to-do list for this conversation. action=list shows it; action=add adds `text`; action=done marks item `id` done.",
      parameters: {
        type: "object",
        properties: {
          action: { type: "string", enum: ["list", "add", "done"] },
          text: { type: "string" },
          id: { type: "integer" },
        },
        required: ["action"],
      },
    },
  };

const NOT_RUNNABLE = new Set(["platform.skill"]);

export function resolveTools(tools: readonly ToolDefinition[] | undefined): ResolvedTool[] {
  return (tools ?? []).map((definition) => {
    const name = toolName(definition);
    const type = definition.type ?? "";
    const builtin = BUILTIN[type];
    const runnable = !NOT_RUNNABLE.has(type);
    const isFunction = type === "function";
    const runs: GateTool["runs"] = builtin !== undefined || isFunction || !runnable ? "server" : "client";
    const annotations = "annotations" in definition ? definition.annotations : undefined;
    const requiresConfirmation =
      "requiresConfirmation" in definition
        ? definition.requiresConfirmation
        : type === "platform.bash" && "approval" in definition && definition.approval === "pause"
          ? true
          : undefined;
    const gate: GateTool = {
      name,
      runs,
      runnable,
      ...(annotations === undefined ? {} : { annotations }),
      ...(builtin === undefined ? {} : { builtinClass: builtin.cls }),
      ...(requiresConfirmation === undefined ? {} : { requiresConfirmation }),
    };
    let chat: ChatTool | null = null;
    if (builtin !== undefined) {
      chat = {
        type: "function",
        function: { name, description: builtin.description, parameters: builtin.parameters },
      };
    } else if (runnable) {
      const described = definition as { description?: string; parameters?: Record<string, unknown> };
      chat = {
        type: "function",
        function: {
          name,
          ...(described.description === undefined ? {} : { description: described.description }),
          parameters: described.parameters ?? { type: "object", properties: {} },
        },
      };
    }
    return { name, definition, gate, chat };
  });
}
