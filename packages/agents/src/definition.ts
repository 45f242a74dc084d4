/**
 * Validation of agent definition files against the published JSON Schema (ajv,
 * draft 2020-12), plus the rules a schema cannot say: `model` equals `models[0]`,
 * tool names are unique. Every error names the offending field (`tools[2].endpoint`).
 */
import { invalidRequest } from "@groundwork/core";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { agentDefinitionSchema, NON_CONFIGURABLE_TOOL_TYPES } from "./definition-schema.js";

export type PolicyDefault = "allow" | "approve" | "block" | "deny";
export type ToolClass = "read" | "write" | "destructive";
export type ToolEntry = ToolClass | "approve" | "auto" | "deny";

export interface HitlPolicy {
  version?: 1;
  default?: PolicyDefault;
  classes?: {
    read?: "allow" | "auto" | "approve" | "block" | "deny";
    write?: "auto" | "approve" | "block" | "deny";
    destructive?: "block" | "deny";
  };
  tools?: Record<string, ToolEntry>;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  openWorldHint?: boolean;
}

export type ToolDefinition =
  | { type: "file_search"; config: { knowledgeBaseIds: string[] }; requiresConfirmation?: boolean }
  | {
      type: "platform.extraction";
      config: { schemaIds: string[]; model?: string };
      requiresConfirmation?: boolean;
    }
  | { type: "platform.document_convert"; config?: Record<string, unknown>; requiresConfirmation?: boolean }
  | { type: "platform.todo"; requiresConfirmation?: boolean }
  | { type: "platform.skill"; skills: string[]; requiresConfirmation?: boolean }
  | {
      type: "platform.bash";
      approval?: "sandbox" | "pause";
      outputs?: "immediate" | "held";
      annotations?: ToolAnnotations;
    }
  | {
      type: "function";
      name: string;
      endpoint: string;
      description?: string;
      parameters?: Record<string, unknown>;
      secret?: string;
      annotations?: ToolAnnotations;
    }
  | NamedToolDefinition;

/** A tool the client runs: the run pauses with `requires_tool_output` when the model calls it. */
export interface NamedToolDefinition {
  type?: string;
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  annotations?: ToolAnnotations;
}

export interface SkillBinding {
  name: string;
  ref?: string;
}

export interface AgentDefinition {
  $schema?: string;
  name: string;
  description?: string;
  model?: string;
  models?: string[];
  instructions?: string;
  tools?: ToolDefinition[];
  hitlPolicy?: HitlPolicy;
  options?: Record<string, unknown>;
  skills?: SkillBinding[];
}

export interface DefinitionError {
  /** The offending field, chat-completions style (`tools[1].config.knowledgeBaseIds`); null for the whole file. */
  param: string | null;
  message: string;
}

// ajv is CommonJS; its class arrives as the named export under both loaders.
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validateSchema = ajv.compile(agentDefinitionSchema as unknown as Record<string, unknown>);

function toParam(instancePath: string): string | null {
  if (instancePath === "") return null;
  let out = "";
  for (const raw of instancePath.split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(token)) out += `[${token}]`;
    else out += out === "" ? token : `.${token}`;
  }
  return out;
}

function joinParam(base: string | null, key: string): string {
  return base === null ? key : `${base}.${key}`;
}

function describe(error: ErrorObject): DefinitionError {
  const param = toParam(error.instancePath);
  const at = param ?? "definition";
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties": {
      const field = joinParam(param, String(p.additionalProperty));
      return { param: field, message: `${field} is not an allowed property` };
    }
    case "required": {
      const field = joinParam(param, String(p.missingProperty));
      return { param: field, message: `${field} is required` };
    }
    case "anyOf":
      if (param === null) {
        return { param: "model", message: "at least one of model or models is required" };
      }
      return { param, message: `${at} ${error.message ?? "is invalid"}` };
    case "not":
      if (param?.endsWith(".type")) {
        return {
          param,
          message: `${at}: tool type is built in and cannot be configured (${NON_CONFIGURABLE_TOOL_TYPES.join(", ")})`,
        };
      }
      return { param, message: `${at} ${error.message ?? "is invalid"}` };
    case "pattern":
      return { param, message: `${at} must match the pattern ${String(p.pattern)}` };
    case "enum":
      return {
        param,
        message: `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
      };
    case "const":
      return { param, message: `${at} must be ${JSON.stringify(p.allowedValue)}` };
    case "propertyNames":
      return {
        param: joinParam(param, String(p.propertyName)),
        message: `${at}: tool name "${String(p.propertyName)}" must contain a non-whitespace character`,
      };
    default:
      return { param, message: `${at} ${error.message ?? "is invalid"}` };
  }
}

/** The errors most worth showing first: deepest field first, wrappers (`if`, `allOf`) never. */
function rank(errors: readonly ErrorObject[]): ErrorObject[] {
  // The branches of the root `anyOf` (model or models) are summed up by the anyOf error itself.
  const useful = errors.filter(
    (e) => e.keyword !== "if" && e.keyword !== "allOf" && !e.schemaPath.startsWith("#/anyOf/"),
  );
  // A propertyNames failure comes with a pattern error on the name itself: keep the first.
  const filtered = useful.filter(
    (e) =>
      !(
        e.keyword === "pattern" &&
        e.propertyName !== undefined &&
        useful.some((o) => o.keyword === "propertyNames")
      ),
  );
  const depth = (e: ErrorObject) => e.instancePath.split("/").length;
  return [...filtered].sort((a, b) => depth(b) - depth(a));
}

/** Every problem of a definition file, most specific first; empty when it is valid. */
export function definitionErrors(value: unknown): DefinitionError[] {
  if (!validateSchema(value)) {
    const seen = new Set<string>();
    const out: DefinitionError[] = [];
    for (const error of rank(validateSchema.errors ?? [])) {
      const described = describe(error);
      const key = `${described.param}|${described.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(described);
    }
    return out;
  }
  const definition = value as AgentDefinition;
  const errors: DefinitionError[] = [];
  if (
    definition.model !== undefined &&
    definition.models !== undefined &&
    definition.models[0] !== definition.model
  ) {
    errors.push({
      param: "model",
      message: `model must equal models[0] ("${definition.models[0]}") when both are given`,
    });
  }
  const names = new Map<string, number>();
  (definition.tools ?? []).forEach((tool, index) => {
    const name = toolName(tool);
    const first = names.get(name);
    if (first !== undefined) {
      errors.push({
        param: `tools[${index}]`,
        message: `tools[${index}]: the tool name "${name}" is already used by tools[${first}]`,
      });
    } else names.set(name, index);
  });
  return errors;
}

/** Validates a definition file; a 400 naming the first offending field. */
export function parseDefinition(value: unknown): AgentDefinition {
  const [first] = definitionErrors(value);
  if (first !== undefined) {
    throw invalidRequest(first.message, { param: first.param, code: "invalid_agent_definition" });
  }
  return value as AgentDefinition;
}

/** The ordered model list of a definition (default first). */
export function modelsOf(definition: AgentDefinition): string[] {
  if (definition.models !== undefined) return [...definition.models];
  return definition.model === undefined ? [] : [definition.model];
}

/**
 * The name the model sees for a tool: named and function tools keep theirs; built-in
 * types become `file_search`, `platform_extraction`, … (dots are not allowed in
 * function names on every provider).
 */
export function toolName(tool: ToolDefinition): string {
  if ("name" in tool && typeof tool.name === "string") return tool.name;
  return String(tool.type).replace(/\./g, "_");
}
