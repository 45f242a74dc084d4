/**
 * Schemas, their immutable versions and labels, resolve, lint and test runs (spec
 * document 2, "Schemas, versions, labels"). Roles are checked at the edge; this
 * service holds the rules: definitions are valid JSON Schema 2020-12, deactivated
 * versions take no labels, `latest` is the system label.
 */
import { invalidRequest, notFound, type PageRequest, type Principal } from "@groundwork/core";
import { lintSchema, type SchemaLintResult, schemaDefinitionErrors } from "@groundwork/extract";
import { isProviderType, PROVIDER_KINDS, parseModelString } from "@groundwork/gateway";
import {
  LATEST_LABEL,
  type SchemaLabelRecord,
  type SchemaRecord,
  type SchemaVersionRecord,
} from "@groundwork/store-sqlite";
import type { PlatformStore } from "../store-port.js";
import { VersionLabels } from "../versioning/version-labels.js";
import { type ExtractionService, failureMessage } from "./extraction-service.js";

export interface SchemaWithLatest {
  schema: SchemaRecord;
  /** The number of the newest active version; null while there is none. */
  latestVersionNumber: number | null;
}

/** What a test run answers: the model's output for a sample, or why it failed (never thrown). */
export interface SchemaTestResult {
  success: boolean;
  extractedData: unknown;
  inputTokens: number;
  outputTokens: number;
  processingDurationMs: number;
  modelUsed: string;
  errorMessage?: string;
}

export interface ResolvedSchema {
  schemaId: string;
  schemaName: string;
  versionId: string;
  versionNumber: number;
  jsonSchema: Record<string, unknown>;
  label: string;
}

export class SchemaService {
  constructor(
    private readonly store: PlatformStore,
    private readonly extraction: ExtractionService,
  ) {}

  // ---- schemas ----

  async list(
    organizationId: string,
    page: PageRequest,
    search?: string,
  ): Promise<{ items: SchemaWithLatest[]; total: number }> {
    const result = await this.store.schemas.list(organizationId, page, search);
    return {
      items: await Promise.all(result.items.map(async (schema) => await this.withLatest(schema))),
      total: result.total,
    };
  }

  async create(
    organizationId: string,
    fields: { name: string; description?: string | null | undefined },
  ): Promise<SchemaRecord> {
    return await this.store.schemas.create(organizationId, {
      name: fields.name,
      description: fields.description ?? null,
    });
  }

  /** A schema of the organization (404 otherwise). */
  async get(organizationId: string, schemaId: string): Promise<SchemaRecord> {
    const schema = await this.store.schemas.get(organizationId, schemaId);
    if (schema === null) throw notFound(`No schema ${schemaId}`);
    return schema;
  }

  async withLatest(schema: SchemaRecord): Promise<SchemaWithLatest> {
    return {
      schema,
      latestVersionNumber: (await this.store.schemas.latestVersion(schema.id))?.versionNumber ?? null,
    };
  }

  async update(
    organizationId: string,
    schemaId: string,
    changes: { name?: string | undefined; description?: string | null | undefined },
  ): Promise<SchemaWithLatest> {
    const schema = await this.get(organizationId, schemaId);
    const updated = await this.store.schemas.update(organizationId, schema.id, {
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.description === undefined ? {} : { description: changes.description }),
    });
    if (updated === null) throw notFound(`No schema ${schema.id}`);
    return this.withLatest(updated);
  }

  async delete(organizationId: string, schemaId: string): Promise<void> {
    await this.store.schemas.delete(organizationId, (await this.get(organizationId, schemaId)).id);
  }

  // ---- versions ----

  /** Commits a new version (it becomes `latest`); the definition must be valid JSON Schema. */
  async commitVersion(
    organizationId: string,
    schemaId: string,
    input: { jsonSchema: unknown; changeDescription?: string | null | undefined },
  ): Promise<SchemaVersionRecord> {
    const schema = await this.get(organizationId, schemaId);
    return await this.store.schemas.commitVersion(schema.id, {
      jsonSchema: checkedDefinition(input.jsonSchema),
      changeDescription: input.changeDescription ?? null,
    });
  }

  async listVersions(organizationId: string, schemaId: string, page: PageRequest) {
    return await this.store.schemas.listVersions((await this.get(organizationId, schemaId)).id, page);
  }

  async latestVersion(organizationId: string, schemaId: string): Promise<SchemaVersionRecord> {
    const schema = await this.get(organizationId, schemaId);
    const version = await this.store.schemas.latestVersion(schema.id);
    if (version === null) throw notFound(`Schema ${schema.id} has no active version yet`);
    return version;
  }

  async getVersion(
    organizationId: string,
    schemaId: string,
    versionId: string,
  ): Promise<SchemaVersionRecord> {
    const schema = await this.get(organizationId, schemaId);
    const version = await this.store.schemas.getVersion(organizationId, schema.id, versionId);
    if (version === null) throw notFound(`Schema ${schema.id} has no version ${versionId}`);
    return version;
  }

  /** Re-activates a version as a copy at the head. */
  async activateVersion(
    organizationId: string,
    schemaId: string,
    versionId: string,
  ): Promise<SchemaVersionRecord> {
    const source = await this.getVersion(organizationId, schemaId, versionId);
    return await this.store.schemas.commitVersion(source.schemaId, {
      jsonSchema: source.jsonSchema,
      changeDescription: `Re-activated copy of version ${source.versionNumber}`,
      extractionConfig: source.extractionConfig,
      copiedFromVersionId: source.id,
    });
  }

  async deactivateVersion(organizationId: string, schemaId: string, versionId: string): Promise<void> {
    const version = await this.getVersion(organizationId, schemaId, versionId);
    await this.store.schemas.deactivateVersion(version.schemaId, version.id);
  }

  // ---- labels ----

  async listLabels(organizationId: string, schemaId: string): Promise<SchemaLabelRecord[]> {
    return await this.store.schemas.listLabels((await this.get(organizationId, schemaId)).id);
  }

  async createLabel(
    organizationId: string,
    schemaId: string,
    name: string,
    versionId: string,
  ): Promise<SchemaLabelRecord> {
    return this.labels(organizationId).create((await this.get(organizationId, schemaId)).id, name, versionId);
  }

  async moveLabel(
    organizationId: string,
    schemaId: string,
    name: string,
    versionId: string,
  ): Promise<SchemaLabelRecord> {
    return this.labels(organizationId).move((await this.get(organizationId, schemaId)).id, name, versionId);
  }

  async deleteLabel(organizationId: string, schemaId: string, name: string): Promise<void> {
    await this.labels(organizationId).delete((await this.get(organizationId, schemaId)).id, name);
  }

  /** The version a label points at (`latest` by default). */
  async resolve(
    organizationId: string,
    schemaId: string,
    labelName: string = LATEST_LABEL,
  ): Promise<ResolvedSchema> {
    const schema = await this.get(organizationId, schemaId);
    const label = await this.store.schemas.getLabel(schema.id, labelName);
    if (label === null) throw notFound(`Schema ${schema.id} has no label "${labelName}"`, { param: "label" });
    const version =
      label.schemaVersionId === null ? null : await this.store.schemas.versionById(label.schemaVersionId);
    if (version === null) {
      throw notFound(`Label "${labelName}" of schema ${schema.id} points at no version yet`, {
        param: "label",
      });
    }
    return {
      schemaId: schema.id,
      schemaName: schema.name,
      versionId: version.id,
      versionNumber: version.versionNumber,
      jsonSchema: version.jsonSchema,
      label: labelName,
    };
  }

  // ---- validate and test ----

  /** Errors and lint warnings of a definition, with the provider rewrites the organization can use. */
  async validate(organizationId: string, schemaId: string, jsonSchema: unknown): Promise<SchemaLintResult> {
    await this.get(organizationId, schemaId);
    return lintSchema(jsonSchema, { providers: await this.configuredProviders(organizationId) });
  }

  /** One model call on a sample with the given definition, or the latest version's. */
  async test(
    principal: Principal,
    schemaId: string,
    input: { jsonSchema?: unknown; sampleText: string; model: string },
    signal?: AbortSignal,
  ): Promise<SchemaTestResult> {
    const schema = await this.get(principal.organizationId, schemaId);
    parseModelString(input.model);
    let jsonSchema: Record<string, unknown>;
    if (input.jsonSchema === undefined || input.jsonSchema === null) {
      const latest = await this.store.schemas.latestVersion(schema.id);
      if (latest === null) {
        throw invalidRequest("jsonSchema is required: the schema has no active version to test", {
          param: "jsonSchema",
        });
      }
      jsonSchema = latest.jsonSchema;
    } else {
      jsonSchema = checkedDefinition(input.jsonSchema);
    }
    try {
      const run = await this.extraction
        .engineFor(principal)
        .extractOnce(
          { jsonSchema, schemaName: schema.name, inputText: input.sampleText, model: input.model },
          signal,
        );
      return {
        success: true,
        extractedData: run.output,
        inputTokens: run.inputTokens,
        outputTokens: run.outputTokens,
        processingDurationMs: run.durationMs,
        modelUsed: input.model,
      };
    } catch (error) {
      return {
        success: false,
        extractedData: null,
        inputTokens: 0,
        outputTokens: 0,
        processingDurationMs: 0,
        modelUsed: input.model,
        errorMessage: failureMessage(error, signal),
      };
    }
  }

  /** Provider prefixes the organization configured, for the provider-rewrite lint. */
  async configuredProviders(organizationId: string): Promise<string[]> {
    return (await this.store.providers.list(organizationId))
      .map((record) => record.type)
      .filter(isProviderType)
      .map((type) => PROVIDER_KINDS[type].prefix);
  }

  /** The shared label rules over this organization's schema versions. */
  private labels(organizationId: string): VersionLabels<SchemaLabelRecord, SchemaVersionRecord> {
    return new VersionLabels({
      noun: "Schema",
      versionParam: "schemaVersionId",
      storage: this.store.schemas,
      findVersion: async (schemaId, versionRef) =>
        await this.store.schemas.getVersion(organizationId, schemaId, versionRef),
    });
  }
}

/** A definition the extraction engine can use (JSON Schema 2020-12), or the 400 saying why not. */
function checkedDefinition(jsonSchema: unknown): Record<string, unknown> {
  const [error] = schemaDefinitionErrors(jsonSchema);
  if (error !== undefined)
    throw invalidRequest(error.message, { param: "jsonSchema", code: "invalid_schema" });
  return jsonSchema as Record<string, unknown>;
}
