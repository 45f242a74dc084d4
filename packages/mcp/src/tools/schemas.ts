import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";

const schemaId = z.string().describe("schema id");
const versionId = z.string().describe("schema version id");
const jsonSchema = z.record(z.string(), z.unknown()).describe("a JSON Schema 2020-12 definition (an object)");

export const schemaTools = [
  defineTool({
    name: "list_schemas",
    group: "Schemas",
    title: "List schemas",
    description: "Lists extraction schemas, optionally filtered by a search text.",
    readOnly: true,
    input: { search: z.string().optional().describe("text to search in schema names"), ...page },
    run: (client, args) => client.schemas.list(defined(args)),
  }),
  defineTool({
    name: "get_schema",
    group: "Schemas",
    title: "Get a schema",
    description: "Reads one schema.",
    readOnly: true,
    input: { schemaId },
    run: (client, args) => client.schemas.get(args.schemaId),
  }),
  defineTool({
    name: "create_schema",
    group: "Schemas",
    title: "Create a schema",
    description: "Creates a schema; commit its JSON Schema with create_schema_version.",
    readOnly: false,
    input: {
      name: z.string().min(1).describe("schema name"),
      description: z.string().optional().describe("what it extracts"),
    },
    run: (client, args) => client.schemas.create(defined(args)),
  }),
  defineTool({
    name: "update_schema",
    group: "Schemas",
    title: "Update a schema",
    description: "Changes a schema's name and/or description.",
    readOnly: false,
    input: {
      schemaId,
      name: z.string().optional().describe("new name"),
      description: z.string().optional().describe("new description"),
    },
    run: (client, { schemaId: id, ...body }) => client.schemas.update(id, defined(body)),
  }),
  defineTool({
    name: "resolve_schema",
    group: "Schemas",
    title: "Resolve a schema label",
    description: "Resolves a schema label (default `latest`) to its version and JSON Schema.",
    readOnly: true,
    input: { schemaId, label: z.string().optional().describe("label name (default latest)") },
    run: (client, args) => client.schemas.resolve(args.schemaId, args.label),
  }),
  defineTool({
    name: "delete_schema",
    group: "Schemas",
    title: "Delete a schema",
    description: "Deletes a schema and all its versions (Admin).",
    readOnly: false,
    destructive: true,
    input: { schemaId },
    run: async (client, args) => {
      await client.schemas.delete(args.schemaId);
      return { deleted: true, schemaId: args.schemaId };
    },
  }),
  defineTool({
    name: "create_schema_version",
    group: "Schema Versions",
    title: "Commit a schema version",
    description: "Commits a new immutable version (latest moves to it). Invalid definitions answer an error.",
    readOnly: false,
    input: { schemaId, jsonSchema, changeDescription: z.string().optional().describe("what changed") },
    run: (client, { schemaId: id, ...body }) => client.schemas.versions.create(id, defined(body)),
  }),
  defineTool({
    name: "list_schema_versions",
    group: "Schema Versions",
    title: "List schema versions",
    description: "Lists a schema's versions.",
    readOnly: true,
    input: { schemaId, ...page },
    run: (client, { schemaId: id, ...query }) => client.schemas.versions.list(id, defined(query)),
  }),
  defineTool({
    name: "get_schema_version",
    group: "Schema Versions",
    title: "Get a schema version",
    description: "Reads one version, including its read-only extractionConfig.",
    readOnly: true,
    input: { schemaId, versionId },
    run: (client, args) => client.schemas.versions.get(args.schemaId, args.versionId),
  }),
  defineTool({
    name: "get_latest_schema_version",
    group: "Schema Versions",
    title: "Get the latest schema version",
    description: "Reads the latest version (prefer resolve_schema).",
    readOnly: true,
    input: { schemaId },
    run: (client, args) => client.schemas.versions.latest(args.schemaId),
  }),
  defineTool({
    name: "delete_schema_version",
    group: "Schema Versions",
    title: "Deactivate a schema version",
    description: "Deactivates (soft-deletes) a version (Admin).",
    readOnly: false,
    destructive: true,
    input: { schemaId, versionId },
    run: async (client, args) => {
      await client.schemas.versions.delete(args.schemaId, args.versionId);
      return { deactivated: true, versionId: args.versionId };
    },
  }),
  defineTool({
    name: "activate_schema_version",
    group: "Schema Versions",
    title: "Re-activate a schema version",
    description: "Copies a historical version to a new version number and moves latest to it.",
    readOnly: false,
    input: { schemaId, versionId },
    run: (client, args) => client.schemas.versions.activate(args.schemaId, args.versionId),
  }),
  defineTool({
    name: "list_schema_labels",
    group: "Schema Labels",
    title: "List schema labels",
    description: "Lists a schema's labels (latest and custom ones).",
    readOnly: true,
    input: { schemaId },
    run: async (client, args) => {
      const labels = await client.schemas.labels.list(args.schemaId);
      return Array.isArray(labels) ? { labels } : labels;
    },
  }),
  defineTool({
    name: "create_schema_label",
    group: "Schema Labels",
    title: "Create a schema label",
    description: "Creates a label (lowercase letters, digits and hyphens) pointing at a version.",
    readOnly: false,
    input: {
      schemaId,
      name: z.string().describe("label name"),
      schemaVersionId: z.string().describe("version it points at"),
    },
    run: (client, { schemaId: id, ...body }) => client.schemas.labels.create(id, body),
  }),
  defineTool({
    name: "update_schema_label",
    group: "Schema Labels",
    title: "Move a schema label",
    description: "Points a label at another version.",
    readOnly: false,
    input: {
      schemaId,
      labelName: z.string().describe("label name"),
      schemaVersionId: z.string().describe("new version"),
    },
    run: (client, args) =>
      client.schemas.labels.update(args.schemaId, args.labelName, { schemaVersionId: args.schemaVersionId }),
  }),
  defineTool({
    name: "delete_schema_label",
    group: "Schema Labels",
    title: "Delete a schema label",
    description: "Deletes a custom label (Admin); latest cannot be deleted.",
    readOnly: false,
    destructive: true,
    input: { schemaId, labelName: z.string().describe("label name") },
    run: async (client, args) => {
      await client.schemas.labels.delete(args.schemaId, args.labelName);
      return { deleted: true, labelName: args.labelName };
    },
  }),
  defineTool({
    name: "validate_schema",
    group: "Schema Testing",
    title: "Validate and lint a JSON Schema",
    description: "Checks a definition and answers {valid, errors, warnings} with lint rules and suggestions.",
    readOnly: true,
    input: { schemaId, jsonSchema },
    run: (client, args) => client.schemas.validate(args.schemaId, args.jsonSchema),
  }),
  defineTool({
    name: "test_schema",
    group: "Schema Testing",
    title: "Test a schema on sample text",
    description: "Runs an extraction on sample text without persisting anything.",
    readOnly: true,
    input: {
      schemaId,
      jsonSchema: jsonSchema.optional(),
      sampleText: z.string().describe("text to extract from"),
      model: z.string().describe("model name or <prefix>/<model>"),
    },
    run: (client, { schemaId: id, ...body }) => client.schemas.test(id, defined(body)),
  }),
  defineTool({
    name: "create_extraction",
    group: "Extractions",
    title: "Run an extraction",
    description:
      "Extracts JSON following a schema from text and/or images. Large inputs answer PENDING: poll get_extraction until COMPLETED or FAILED.",
    readOnly: false,
    input: {
      schemaId,
      schemaVersionId: z.string().optional().describe("pin a version (default: latest active)"),
      inputText: z.string().optional().describe("text to extract from"),
      inputImages: z
        .array(
          z.object({
            data: z.string().describe("base64 image"),
            mimeType: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]).describe("image type"),
          }),
        )
        .max(10)
        .optional()
        .describe("up to 10 images"),
      model: z.string().describe("model name or <prefix>/<model>"),
    },
    run: (client, args) => client.extractions.create(defined(args)),
  }),
  defineTool({
    name: "get_extraction",
    group: "Extractions",
    title: "Get an extraction",
    description: "Reads an extraction (status, result, scoring); use it to poll async extractions.",
    readOnly: true,
    input: { extractionId: z.string().describe("extraction id") },
    run: (client, args) => client.extractions.get(args.extractionId),
  }),
  defineTool({
    name: "list_extractions",
    group: "Extractions",
    title: "List extractions",
    description: "Lists extractions, filtered by model name, schema version or status.",
    readOnly: true,
    input: {
      search: z.string().optional().describe("filters by model name"),
      schemaVersionId: z.string().optional().describe("only this schema version"),
      status: z
        .enum(["PENDING", "PROCESSING", "COMPLETED", "FAILED"])
        .optional()
        .describe("only this status"),
      ...page,
    },
    run: (client, args) => client.extractions.list(defined(args)),
  }),
  defineTool({
    name: "delete_extraction",
    group: "Extractions",
    title: "Delete an extraction",
    description: "Deletes an extraction and its result.",
    readOnly: false,
    destructive: true,
    input: { extractionId: z.string().describe("extraction id") },
    run: async (client, args) => {
      await client.extractions.delete(args.extractionId);
      return { deleted: true, extractionId: args.extractionId };
    },
  }),
  defineTool({
    name: "estimate_tokens",
    group: "Extractions",
    title: "Estimate an extraction",
    description: "Estimates input/output tokens and the strategy (SINGLE_SHOT, CHUNKED, ASYNC) for a text.",
    readOnly: true,
    input: {
      schemaId,
      schemaVersionId: z.string().optional().describe("pin a version"),
      inputText: z.string().describe("the text to estimate"),
    },
    run: (client, args) => client.extractions.estimate(defined(args)),
  }),
  defineTool({
    name: "rerun_extraction",
    group: "Extractions",
    title: "Rerun an extraction",
    description: "Runs a finished extraction again with its schema version, text and model (billed as new).",
    readOnly: false,
    input: { extractionId: z.string().describe("extraction id") },
    run: (client, args) => client.extractions.rerun(args.extractionId),
  }),
];
