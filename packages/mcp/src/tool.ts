/**
 * One MCP tool: its `svc_` name, group, description, input schema (every
 * parameter described), annotations, and the API call it makes.
 */
import type { GroundworkClient } from "@groundwork/client";
import type { z } from "zod";

export type ToolGroup =
  | "AI Gateway"
  | "Agents"
  | "Audio Transcription"
  | "Providers"
  | "Schemas"
  | "Schema Versions"
  | "Schema Labels"
  | "Schema Testing"
  | "Extractions"
  | "Document Conversion"
  | "Knowledge Bases"
  | "Files"
  | "Memory"
  | "Skills"
  | "Plugins"
  | "Conversations"
  | "Scores"
  | "Evaluators"
  | "Datasets"
  | "Prompts"
  | "Analytics"
  | "Billing"
  | "Annotation Queues"
  | "Experiments"
  | "Tracing"
  | "API Documentation";

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  /** Without the `svc_` prefix. */
  name: string;
  group: ToolGroup;
  title: string;
  description: string;
  input: Shape;
  /** Reads only (true) or changes something; destructive tools delete or overwrite. */
  readOnly: boolean;
  destructive?: boolean;
  run: (
    client: GroundworkClient,
    args: z.output<z.ZodObject<Shape>>,
    context: ToolContext,
  ) => Promise<unknown>;
}

/** What a tool may need besides the API: the tool server's own settings. */
export interface ToolContext {
  /** Origin of the chat app that connector pauses point to. */
  chatUrl: string;
}

/** Keeps each definition's argument type tied to its own input shape. */
export function defineTool<Shape extends z.ZodRawShape>(definition: ToolDefinition<Shape>): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

export const TOOL_PREFIX = "svc_";
