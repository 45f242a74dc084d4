/** LLM-judge evaluator templates (PLATFORM.md §9): the record and its row, for both SQL stores. */
import { int, json } from "./columns.js";

export interface EvaluatorTemplateRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  prompt: string;
  model: string;
  /** The judge scale as the service validated it (`{type: "numeric", min, max}`, …). */
  scale: Record<string, unknown>;
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface EvaluatorTemplateInput {
  name: string;
  description: string | null;
  prompt: string;
  model: string;
  scale: Record<string, unknown>;
}

export interface EvaluatorTemplateRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  prompt: string;
  model: string;
  /** JSON text. */
  scale: unknown;
  version: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export function toEvaluatorTemplate(row: EvaluatorTemplateRow): EvaluatorTemplateRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    description: row.description,
    prompt: row.prompt,
    model: row.model,
    scale: json<Record<string, unknown>>(row.scale),
    version: int(row.version),
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}
