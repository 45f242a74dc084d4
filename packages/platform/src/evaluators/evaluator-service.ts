/**
 * Evaluators (PLATFORM.md §9): the type table, LLM-judge templates (CRUD with a `version` counter)
 * and `evaluate` — the library entry point that scores cases with a built-in type or a judge
 * template. Judge calls go through the gateway for the caller's principal, so they are routed,
 * limited and metered like any chat completion. Roles are the HTTP guards' business.
 */
import { conflict, invalidRequest, notFound, type PageRequest, type Principal } from "@groundwork/core";
import {
  type BuiltinEvaluatorType,
  checkEvaluatorType,
  type EvaluationCase,
  type EvaluatorType,
  type EvaluatorTypeInfo,
  evaluateParsed,
  evaluatorTypes,
  type JudgeOutcome,
  type JudgeScale,
  judge,
  parseEvaluatorParams,
  unknownJudgeVariables,
} from "@groundwork/evaluation";
import { type Gateway, parseModelString } from "@groundwork/gateway";
import type { EvaluatorTemplateInput, EvaluatorTemplateRecord } from "@groundwork/store-sqlite";
import { gatewayChatModel } from "../extraction/gateway-chat-model.js";
import type { PlatformStore } from "../store-port.js";
import { validate } from "../validate.js";
import {
  type EvaluatorSpec,
  type EvaluatorTemplateCreateInput,
  type EvaluatorTemplateUpdateInput,
  evaluatorSpec,
  evaluatorTemplateCreateBody,
  evaluatorTemplateUpdateBody,
} from "./evaluator-commands.js";

/** Whether an experiment uses the template (deleting it is then 409 `template_in_use`). */
export type TemplateInUseCheck = (organizationId: string, templateId: string) => boolean | Promise<boolean>;

export interface EvaluatorServiceOptions {
  templateInUse?: TemplateInUseCheck;
  /** Judge calls in flight at once per `evaluate` call (default 4, as experiment items run). */
  judgeConcurrency?: number;
}

/** An evaluator ready to score: params validated and defaulted, references resolved in the organization. */
export type PreparedEvaluator =
  | { type: BuiltinEvaluatorType; params: Record<string, unknown>; template: null }
  | {
      type: "llm_judge";
      params: { templateId: string; passThreshold: number };
      template: EvaluatorTemplateRecord;
    };

/** What `evaluate` answers: one outcome per case, in order, and the template version a judge used. */
export interface EvaluationRun {
  type: EvaluatorType;
  templateId: string | null;
  templateVersion: number | null;
  results: JudgeOutcome[];
}

export class EvaluatorService {
  private templateInUse: TemplateInUseCheck;
  private readonly judgeConcurrency: number;

  constructor(
    private readonly store: PlatformStore,
    private readonly gateway: Gateway,
    options: EvaluatorServiceOptions = {},
  ) {
    this.templateInUse = options.templateInUse ?? (() => false);
    this.judgeConcurrency = Math.max(1, options.judgeConcurrency ?? 4);
  }

  /** Registers the check deletes consult (experiments, once they exist). */
  setTemplateInUseCheck(check: TemplateInUseCheck): void {
    this.templateInUse = check;
  }

  /** `GET /v1/evaluators/types`. */
  types(): EvaluatorTypeInfo[] {
    return evaluatorTypes();
  }

  async listTemplates(
    organizationId: string,
    page: PageRequest,
  ): Promise<{ items: EvaluatorTemplateRecord[]; total: number }> {
    return await this.store.evaluatorTemplates.list(organizationId, page);
  }

  async getTemplate(organizationId: string, templateId: string): Promise<EvaluatorTemplateRecord> {
    const template = await this.store.evaluatorTemplates.get(organizationId, templateId);
    if (template === null) {
      throw notFound(`No evaluator template ${templateId} in this organization`, { param: "templateId" });
    }
    return template;
  }

  async createTemplate(
    organizationId: string,
    input: EvaluatorTemplateCreateInput,
  ): Promise<EvaluatorTemplateRecord> {
    const body = validate(evaluatorTemplateCreateBody, input);
    const fields = checkedFields({ ...body, description: body.description ?? null });
    const templates = this.store.evaluatorTemplates;
    return await templates.atomically(async () => {
      await this.refuseTakenName(organizationId, fields.name, null);
      return await templates.create(organizationId, fields);
    });
  }

  /** Any of the create fields; the version increments on every update. */
  async updateTemplate(
    organizationId: string,
    templateId: string,
    input: EvaluatorTemplateUpdateInput,
  ): Promise<EvaluatorTemplateRecord> {
    await this.getTemplate(organizationId, templateId);
    const body = validate(evaluatorTemplateUpdateBody, input);
    const templates = this.store.evaluatorTemplates;
    return templates.atomically(async () => {
      const current = await this.getTemplate(organizationId, templateId);
      const fields = checkedFields({
        name: body.name ?? current.name,
        description: body.description === undefined ? current.description : body.description,
        prompt: body.prompt ?? current.prompt,
        model: body.model ?? current.model,
        scale: body.scale ?? (current.scale as JudgeScale),
      });
      await this.refuseTakenName(organizationId, fields.name, current.id);
      return await templates.update(current, fields);
    });
  }

  async deleteTemplate(organizationId: string, templateId: string): Promise<void> {
    await this.getTemplate(organizationId, templateId);
    if (await this.templateInUse(organizationId, templateId)) {
      throw conflict(`Evaluator template ${templateId} is used by an experiment`, {
        param: "templateId",
        code: "template_in_use",
      });
    }
    await this.store.evaluatorTemplates.delete(organizationId, templateId);
  }

  /**
   * Validates an evaluator and resolves what it refers to in the organization: a judge's
   * template, a `json_schema_valid` schema version. 400s and 404s name `<base>.<field>`
   * (`params.templateId`; experiments pass `evaluators[i].params`).
   */
  async prepare(organizationId: string, spec: EvaluatorSpec, base = "params"): Promise<PreparedEvaluator> {
    const { type: rawType, params: rawParams } = validate(evaluatorSpec, spec);
    const typeParam = base.endsWith("params") ? `${base.slice(0, -"params".length)}type` : "type";
    const type = checkEvaluatorType(rawType, typeParam);
    if (type === "llm_judge") {
      const params = parseEvaluatorParams("llm_judge", rawParams, base);
      const template = await this.store.evaluatorTemplates.get(organizationId, params.templateId);
      if (template === null) {
        throw notFound(`No evaluator template ${params.templateId} in this organization`, {
          param: `${base}.templateId`,
        });
      }
      return { type, params, template };
    }
    const params = parseEvaluatorParams(type, rawParams, base);
    if (type === "json_schema_valid" && typeof params.schemaVersionId === "string") {
      const version = await this.store.schemas.versionById(params.schemaVersionId);
      if (version === null || version.organizationId !== organizationId) {
        throw notFound(`No schema version ${params.schemaVersionId} in this organization`, {
          param: `${base}.schemaVersionId`,
        });
      }
      return { type, params: { ...params, jsonSchema: version.jsonSchema }, template: null };
    }
    return { type, params, template: null };
  }

  /**
   * Scores each case with one evaluator (built-in, or `llm_judge` through the gateway as the
   * principal). Bad params and unknown references throw (400/404) before anything runs; after
   * that each case gets a score, a skip or an error, in the order given.
   */
  async evaluate(
    principal: Principal,
    spec: EvaluatorSpec,
    cases: readonly EvaluationCase[],
    options: { signal?: AbortSignal } = {},
  ): Promise<EvaluationRun> {
    const prepared = await this.prepare(principal.organizationId, spec);
    return this.run(principal, prepared, cases, options);
  }

  /** As {@link evaluate}, with an evaluator {@link prepare} returned (experiments prepare once per run). */
  async run(
    principal: Principal,
    prepared: PreparedEvaluator,
    cases: readonly EvaluationCase[],
    options: { signal?: AbortSignal } = {},
  ): Promise<EvaluationRun> {
    if (prepared.type !== "llm_judge") {
      const { type, params } = prepared;
      return {
        type,
        templateId: null,
        templateVersion: null,
        results: cases.map((testCase) => evaluateParsed(type, params, testCase)),
      };
    }
    const { template, params } = prepared;
    const model = gatewayChatModel(this.gateway, principal);
    const judgeTemplate = {
      prompt: template.prompt,
      model: template.model,
      scale: template.scale as JudgeScale,
    };
    const results = new Array<JudgeOutcome>(cases.length);
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const index = next++;
        results[index] = await judge(model, judgeTemplate, cases[index] as EvaluationCase, {
          passThreshold: params.passThreshold,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.judgeConcurrency, cases.length) }, worker));
    return { type: "llm_judge", templateId: template.id, templateVersion: template.version, results };
  }

  private async refuseTakenName(
    organizationId: string,
    name: string,
    exceptId: string | null,
  ): Promise<void> {
    const taken = await this.store.evaluatorTemplates.findByName(organizationId, name);
    if (taken !== null && taken.id !== exceptId) {
      throw conflict(`An evaluator template named "${name}" already exists`, { param: "name" });
    }
  }
}

/** The checks beyond the body schema: the model string and the prompt's variables. */
function checkedFields(fields: {
  name: string;
  description: string | null;
  prompt: string;
  model: string;
  scale: JudgeScale;
}): EvaluatorTemplateInput {
  parseModelString(fields.model, "model");
  const unknown = unknownJudgeVariables(fields.prompt);
  if (unknown.length > 0) {
    throw invalidRequest(
      `prompt: unknown variable${unknown.length === 1 ? "" : "s"} ${unknown.map((v) => `{{${v}}}`).join(", ")}; the judge provides {{input}}, {{output}}, {{expectedOutput}} and {{metadata}}`,
      { param: "prompt" },
    );
  }
  return { ...fields, scale: fields.scale as unknown as Record<string, unknown> };
}
