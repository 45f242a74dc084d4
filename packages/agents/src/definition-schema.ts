/**
 * The agent definition file (spec document 3, "Agent definition file", "Tools",
 * "Human-in-the-loop policy") as one JSON Schema 2020-12 document. This module is
 * the single source: `docs/agent-definition.schema.json` is generated from it
 * (`pnpm --filter @groundwork/agents exec tsx scripts/write-schema.ts`, and a test
 * fails when the file and this module differ).
 *
 * Tool objects are matched on `type` with `if`/`then` pairs rather than `oneOf`, so a
 * wrong tool reports the field of its own shape that is wrong instead of one error per
 * branch.
 */

export const MODEL_STRING_PATTERN = "^(?:[^/#]+|[A-Za-z0-9-]+/[^#]+)$";
export const SKILL_NAME_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*(:[a-z0-9]+(-[a-z0-9]+)*)?$";
export const SKILL_REF_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*(:[a-z0-9]+(-[a-z0-9]+)*)?(@[A-Za-z0-9._-]+)?$";
export const AGENT_NAME_PATTERN = "^[^#@]+$";

/** Tool types with a fixed shape. */
export const KNOWN_TOOL_TYPES = [
  "file_search",
  "platform.extraction",
  "platform.document_convert",
  "platform.todo",
  "platform.skill",
  "platform.bash",
  "function",
] as const;

/** Built-in tool types the platform adds by itself; a definition may not configure them. */
export const NON_CONFIGURABLE_TOOL_TYPES = [
  "platform.tool_search",
  "platform.skill_read",
  "platform.skills_apply",
  "platform.deliver",
  "platform.view_image",
  "web_search",
] as const;

const requiresConfirmation = { type: "boolean" };
const nonEmptyString = { type: "string", minLength: 1 };

function toolIf(type: string, ref: string) {
  return {
    if: { properties: { type: { const: type } }, required: ["type"] },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, never awaited
    then: { $ref: ref },
  };
}

export const agentDefinitionSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://groundwork.dev/schemas/agent-definition.schema.json",
  title: "Groundwork agent definition file",
  description:
    "An agent: ordered model list, instructions, tools, human-in-the-loop policy and skills (spec document 3). Applied with POST /v1/agents/apply.",
  type: "object",
  additionalProperties: false,
  required: ["name"],
  anyOf: [{ required: ["model"] }, { required: ["models"] }],
  properties: {
    $schema: { type: "string" },
    name: {
      type: "string",
      minLength: 1,
      maxLength: 255,
      pattern: AGENT_NAME_PATTERN,
      description:
        "Unique per organization; '#' and '@' are reserved. Apply finds the agent by this exact name.",
    },
    description: { type: "string", maxLength: 4000 },
    model: {
      $ref: "#/$defs/modelString",
      description: "One-model shorthand; with `models` it must equal the first entry.",
    },
    models: {
      type: "array",
      minItems: 1,
      maxItems: 10,
      uniqueItems: true,
      items: { $ref: "#/$defs/modelString" },
      description:
        "Ordered; the first is the default, the others can be picked per request with agent/<name>#<model>.",
    },
    instructions: { type: "string", maxLength: 20000 },
    tools: { type: "array", items: { $ref: "#/$defs/tool" } },
    hitlPolicy: { $ref: "#/$defs/hitlPolicy" },
    options: { type: "object", description: "Stored with the version; not read by the run engine." },
    skills: { type: "array", maxItems: 20, items: { $ref: "#/$defs/skillBinding" } },
  },
  $defs: {
    modelString: {
      type: "string",
      minLength: 1,
      maxLength: 255,
      pattern: MODEL_STRING_PATTERN,
    },
    annotations: {
      type: "object",
      additionalProperties: false,
      required: ["readOnlyHint", "destructiveHint"],
      properties: {
        readOnlyHint: { type: "boolean" },
        destructiveHint: { type: "boolean" },
        openWorldHint: { type: "boolean" },
      },
    },
    skillBinding: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: {
        name: { type: "string", maxLength: 201, pattern: SKILL_NAME_PATTERN },
        ref: { type: "string", pattern: "\\S", description: "Label name or version number; default latest." },
      },
    },
    hitlPolicy: {
      type: "object",
      additionalProperties: false,
      properties: {
        version: { const: 1 },
        default: { enum: ["allow", "approve", "block", "deny"] },
        classes: {
          type: "object",
          additionalProperties: false,
          properties: {
            read: { enum: ["allow", "auto", "approve", "block", "deny"] },
            write: { enum: ["auto", "approve", "block", "deny"] },
            destructive: { enum: ["block", "deny"] },
          },
        },
        tools: {
          type: "object",
          propertyNames: { pattern: "\\S" },
          additionalProperties: { enum: ["read", "write", "destructive", "approve", "auto", "deny"] },
        },
      },
    },
    tool: {
      type: "object",
      allOf: [
        toolIf("file_search", "#/$defs/fileSearchTool"),
        toolIf("platform.extraction", "#/$defs/extractionTool"),
        toolIf("platform.document_convert", "#/$defs/documentConvertTool"),
        toolIf("platform.todo", "#/$defs/todoTool"),
        toolIf("platform.skill", "#/$defs/skillTool"),
        toolIf("platform.bash", "#/$defs/bashTool"),
        toolIf("function", "#/$defs/functionTool"),
        {
          if: {
            properties: { type: { enum: [...NON_CONFIGURABLE_TOOL_TYPES] } },
            required: ["type"],
          },
          // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, never awaited
          then: { properties: { type: { not: { enum: [...NON_CONFIGURABLE_TOOL_TYPES] } } } },
        },
        {
          if: {
            anyOf: [
              { not: { required: ["type"] } },
              {
                properties: {
                  type: { not: { enum: [...KNOWN_TOOL_TYPES, ...NON_CONFIGURABLE_TOOL_TYPES] } },
                },
              },
            ],
          },
          // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, never awaited
          then: { $ref: "#/$defs/namedTool" },
        },
      ],
    },
    fileSearchTool: {
      type: "object",
      additionalProperties: false,
      required: ["type", "config"],
      properties: {
        type: { const: "file_search" },
        config: {
          type: "object",
          additionalProperties: false,
          required: ["knowledgeBaseIds"],
          properties: { knowledgeBaseIds: { type: "array", items: nonEmptyString } },
        },
        requiresConfirmation,
      },
    },
    extractionTool: {
      type: "object",
      additionalProperties: false,
      required: ["type", "config"],
      properties: {
        type: { const: "platform.extraction" },
        config: {
          type: "object",
          additionalProperties: false,
          required: ["schemaIds"],
          properties: {
            schemaIds: { type: "array", items: nonEmptyString },
            model: nonEmptyString,
          },
        },
        requiresConfirmation,
      },
    },
    documentConvertTool: {
      type: "object",
      additionalProperties: false,
      required: ["type"],
      properties: {
        type: { const: "platform.document_convert" },
        config: { type: "object" },
        requiresConfirmation,
      },
    },
    todoTool: {
      type: "object",
      additionalProperties: false,
      required: ["type"],
      properties: { type: { const: "platform.todo" }, requiresConfirmation },
    },
    skillTool: {
      type: "object",
      additionalProperties: false,
      required: ["type", "skills"],
      properties: {
        type: { const: "platform.skill" },
        skills: {
          type: "array",
          minItems: 1,
          maxItems: 20,
          uniqueItems: true,
          items: { type: "string", pattern: SKILL_REF_PATTERN },
        },
        requiresConfirmation,
      },
    },
    bashTool: {
      type: "object",
      additionalProperties: false,
      required: ["type"],
      properties: {
        type: { const: "platform.bash" },
        approval: { enum: ["sandbox", "pause"] },
        outputs: { enum: ["immediate", "held"] },
        annotations: { $ref: "#/$defs/annotations" },
      },
    },
    functionTool: {
      type: "object",
      additionalProperties: false,
      required: ["type", "name", "endpoint"],
      properties: {
        type: { const: "function" },
        name: nonEmptyString,
        endpoint: { type: "string", pattern: "^https?://" },
        description: { type: "string" },
        parameters: { type: "object" },
        secret: { type: "string" },
        annotations: { $ref: "#/$defs/annotations" },
      },
    },
    namedTool: {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: {
        name: nonEmptyString,
        type: { type: "string" },
        description: { type: "string" },
        parameters: { type: "object" },
        annotations: { $ref: "#/$defs/annotations" },
      },
    },
  },
} as const;
