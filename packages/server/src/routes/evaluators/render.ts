/** Evaluator templates as the API shows them (PLATFORM.md §9): timestamps as ISO strings. */
import type { EvaluatorTemplateRecord } from "@groundwork/store-sqlite";

const iso = (ms: number) => new Date(ms).toISOString();

export function renderTemplate(template: EvaluatorTemplateRecord) {
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    prompt: template.prompt,
    model: template.model,
    scale: template.scale,
    version: template.version,
    createdAt: iso(template.createdAt),
    updatedAt: iso(template.updatedAt),
  };
}
