/**
 * The Agents group, including the run tools' agent side: `svc_create_response`
 * returns the spec's run envelope for agent models, and
 * `svc_decide_agent_approvals` continues a paused run.
 */
import type { GroundworkClient, JsonObject } from "@groundwork/client";
import { invalidRequest } from "@groundwork/core";
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";
import { runEnvelope } from "./run-envelope.js";

const agentId = z.string().describe("agent id");
const versionId = z.string().describe("agent version id");
const definition = z
  .record(z.string(), z.unknown())
  .describe(
    "an agent definition file (name, instructions, models, tools, hitlPolicy, … — see docs/agent-definition.schema.json)",
  );
const mode = z
  .enum(["plan", "ask", "auto"])
  .optional()
  .describe("conversation mode for this and later turns");

/** Starts or continues an agent run through POST /v1/responses and returns its envelope. */
export async function runAgent(
  client: GroundworkClient,
  body: JsonObject,
  chatUrl: string,
): Promise<JsonObject> {
  return runEnvelope(await client.responses.create(body as { model: string; input: string }), chatUrl);
}

export const agentTools = [
  defineTool({
    name: "list_agents",
    group: "Agents",
    title: "List agents",
    description: "Lists the organization's agents with their model list (default first).",
    readOnly: true,
    input: { ...page },
    run: (client, args) => client.agents.list(defined(args)),
  }),
  defineTool({
    name: "list_agent_catalog",
    group: "Agents",
    title: "List the agent catalog",
    description: "Lists published agents only, as id, name and description.",
    readOnly: true,
    input: {},
    run: (client) => client.agents.catalog(),
  }),
  defineTool({
    name: "get_agent",
    group: "Agents",
    title: "Get an agent",
    description: "Reads one agent with its latest version.",
    readOnly: true,
    input: { agentId },
    run: (client, args) => client.agents.get(args.agentId),
  }),
  defineTool({
    name: "create_agent",
    group: "Agents",
    title: "Create an agent",
    description:
      "Creates an agent from a definition file; `apply: true` creates it or adds a version to the agent of that exact name.",
    readOnly: false,
    input: { definition, apply: z.boolean().optional().describe("create or new version by exact name") },
    run: (client, args) =>
      args.apply === true ? client.agents.apply(args.definition) : client.agents.create(args.definition),
  }),
  defineTool({
    name: "update_agent",
    group: "Agents",
    title: "Update an agent",
    description: "Changes definition fields (a new version when they change) and/or `published`.",
    readOnly: false,
    input: {
      agentId,
      changes: z
        .record(z.string(), z.unknown())
        .describe("fields to change, e.g. {published: true} or {models: [...]}"),
    },
    run: (client, args) => client.agents.update(args.agentId, args.changes),
  }),
  defineTool({
    name: "delete_agent",
    group: "Agents",
    title: "Delete an agent",
    description: "Deletes an agent (Admin).",
    readOnly: false,
    destructive: true,
    input: { agentId },
    run: async (client, args) => {
      await client.agents.delete(args.agentId);
      return { deleted: true, agentId: args.agentId };
    },
  }),
  defineTool({
    name: "list_agent_versions",
    group: "Agents",
    title: "List agent versions",
    description: "Lists an agent's versions.",
    readOnly: true,
    input: { agentId, ...page },
    run: (client, { agentId: id, ...query }) => client.agents.versions.list(id, defined(query)),
  }),
  defineTool({
    name: "create_agent_version",
    group: "Agents",
    title: "Create an agent version",
    description: "Commits a new version of an agent from a definition file.",
    readOnly: false,
    input: { agentId, definition },
    run: (client, args) => client.agents.versions.create(args.agentId, args.definition),
  }),
  defineTool({
    name: "get_latest_agent_version",
    group: "Agents",
    title: "Get the latest agent version",
    description: "Reads an agent's latest active version.",
    readOnly: true,
    input: { agentId },
    run: (client, args) => client.agents.versions.latest(args.agentId),
  }),
  defineTool({
    name: "get_agent_version",
    group: "Agents",
    title: "Get an agent version",
    description: "Reads one version with its definition.",
    readOnly: true,
    input: { agentId, versionId },
    run: (client, args) => client.agents.versions.get(args.agentId, args.versionId),
  }),
  defineTool({
    name: "get_agent_version_policy",
    group: "Agents",
    title: "Explain an agent version's tool policy",
    description:
      "For each tool (or one), what the approval gate would do: verdict, composed action, class, source, matched statements.",
    readOnly: true,
    input: {
      agentId,
      versionId,
      tool: z.string().optional().describe("only this tool"),
      mode,
      installationId: z
        .string()
        .optional()
        .describe(
          "explain the policy as this plugin installation sees the agent (404 when it does not exist)",
        ),
    },
    run: (client, { agentId: id, versionId: vid, ...query }) =>
      client.agents.versions.policy(id, vid, defined(query)),
  }),
  defineTool({
    name: "deactivate_agent_version",
    group: "Agents",
    title: "Deactivate an agent version",
    description: "Deactivates a version (Admin).",
    readOnly: false,
    destructive: true,
    input: { agentId, versionId },
    run: async (client, args) => {
      await client.agents.versions.deactivate(args.agentId, args.versionId);
      return { deactivated: true, versionId: args.versionId };
    },
  }),
  defineTool({
    name: "activate_agent_version",
    group: "Agents",
    title: "Re-activate an agent version",
    description: "Copies a historical version to the head as a new version.",
    readOnly: false,
    input: { agentId, versionId },
    run: (client, args) => client.agents.versions.activate(args.agentId, args.versionId),
  }),
  defineTool({
    name: "list_agent_labels",
    group: "Agents",
    title: "List agent labels",
    description: "Lists an agent's labels (e.g. production, staging).",
    readOnly: true,
    input: { agentId },
    run: (client, args) => client.agents.labels.list(args.agentId),
  }),
  defineTool({
    name: "create_agent_label",
    group: "Agents",
    title: "Create an agent label",
    description: "Creates a label pointing at a version; runs address it as agent/<name>@<label>.",
    readOnly: false,
    input: {
      agentId,
      name: z.string().describe("label name"),
      agentVersionId: z.string().describe("version it points at"),
    },
    run: (client, { agentId: id, ...body }) => client.agents.labels.create(id, body),
  }),
  defineTool({
    name: "update_agent_label",
    group: "Agents",
    title: "Move an agent label",
    description: "Points a label at another version.",
    readOnly: false,
    input: {
      agentId,
      labelName: z.string().describe("label name"),
      agentVersionId: z.string().describe("new version"),
    },
    run: (client, args) =>
      client.agents.labels.update(args.agentId, args.labelName, { agentVersionId: args.agentVersionId }),
  }),
  defineTool({
    name: "delete_agent_label",
    group: "Agents",
    title: "Delete an agent label",
    description: "Deletes a label (Admin).",
    readOnly: false,
    destructive: true,
    input: { agentId, labelName: z.string().describe("label name") },
    run: async (client, args) => {
      await client.agents.labels.delete(args.agentId, args.labelName);
      return { deleted: true, labelName: args.labelName };
    },
  }),
  defineTool({
    name: "list_agent_approvals",
    group: "Agents",
    title: "List pending approvals",
    description: "Lists an agent's runs waiting for approval.",
    readOnly: true,
    input: { agentId },
    run: (client, args) => client.agents.approvals(args.agentId),
  }),
  defineTool({
    name: "decide_agent_approvals",
    group: "Agents",
    title: "Decide approvals and answer relayed tool calls",
    description:
      "Continues a paused agent run: decide every pending approval (decisions or decideAll) and answer every relayed call (outputs) of the paused response in one call. Returns the continuation's run envelope, which may pause again.",
    readOnly: false,
    input: {
      agent: z
        .string()
        .describe("the run's model string exactly as sent, e.g. agent/support@production#hosted-a/gpt-x"),
      responseId: z.string().describe("the paused response's id"),
      decisions: z
        .array(
          z.object({
            approvalId: z.string().describe("pending approval id"),
            decision: z.enum(["approve", "reject"]).describe("the decision"),
            reason: z.string().optional().describe("why (shown to the model)"),
            remember: z
              .boolean()
              .optional()
              .describe("approve this tool for the rest of the conversation (not for destructive tools)"),
          }),
        )
        .optional()
        .describe("one decision per pending approval"),
      decideAll: z
        .enum(["approve", "reject"])
        .optional()
        .describe("decide every pending approval the same way"),
      outputs: z
        .array(
          z.object({
            callId: z.string().describe("the relayed call's id"),
            output: z.string().describe("the tool's output, sent verbatim"),
            failed: z.boolean().optional().describe("the output is a failure message"),
          }),
        )
        .optional()
        .describe("answers to relayed tool calls"),
      mode,
    },
    run: (client, args, { chatUrl }) => {
      if (!args.agent.startsWith("agent/")) {
        throw invalidRequest("agent must be the run's agent model string (agent/<name>…)", {
          param: "agent",
        });
      }
      const input = [
        ...(args.decisions ?? []).map((d) =>
          defined({
            type: "approval_response",
            approval_request_id: d.approvalId,
            approve: d.decision === "approve",
            reason: d.reason,
            remember: d.remember,
          }),
        ),
        ...(args.outputs ?? []).map((o) =>
          defined({ type: "function_call_output", call_id: o.callId, output: o.output, failed: o.failed }),
        ),
      ];
      return runAgent(
        client,
        defined({
          model: args.agent,
          previous_response_id: args.responseId,
          input,
          decideAll: args.decideAll,
          mode: args.mode,
        }),
        chatUrl,
      );
    },
  }),
];
