/**
 * LLM-judge evaluator templates on PostgreSQL: the counterpart of store-sqlite's
 * `EvaluatorTemplateStore` (same methods, same answers; rows mapped by @groundwork/store-rows).
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  type EvaluatorTemplateInput,
  type EvaluatorTemplateRecord,
  type EvaluatorTemplateRow,
  toEvaluatorTemplate,
} from "@groundwork/store-rows";
import { PostgresFamily } from "./postgres-family.js";

export class PostgresEvaluatorTemplateStore extends PostgresFamily {
  async get(organizationId: string, id: string): Promise<EvaluatorTemplateRecord | null> {
    const row = await this.row<EvaluatorTemplateRow>(
      "SELECT * FROM evaluator_templates WHERE organization_id = $1 AND id = $2",
      [organizationId, id],
    );
    return row === undefined ? null : toEvaluatorTemplate(row);
  }

  /** The template with this name in the organization (names are compared exactly). */
  async findByName(organizationId: string, name: string): Promise<EvaluatorTemplateRecord | null> {
    const row = await this.row<EvaluatorTemplateRow>(
      "SELECT * FROM evaluator_templates WHERE organization_id = $1 AND name = $2",
      [organizationId, name],
    );
    return row === undefined ? null : toEvaluatorTemplate(row);
  }

  /** Newest first. */
  async list(
    organizationId: string,
    page: PageRequest,
  ): Promise<{ items: EvaluatorTemplateRecord[]; total: number }> {
    const counted = await this.row<{ total: unknown }>(
      "SELECT count(*) AS total FROM evaluator_templates WHERE organization_id = $1",
      [organizationId],
    );
    const rows = await this.rows<EvaluatorTemplateRow>(
      `SELECT * FROM evaluator_templates WHERE organization_id = $1
         ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [organizationId, page.size, pageOffset(page)],
    );
    return { items: rows.map(toEvaluatorTemplate), total: Number(counted?.total ?? 0) };
  }

  async create(organizationId: string, input: EvaluatorTemplateInput): Promise<EvaluatorTemplateRecord> {
    const id = this.ids("evt");
    const now = this.clock.now();
    await this.db.query(
      `INSERT INTO evaluator_templates (id, organization_id, name, description, prompt, model, scale, version, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $8)`,
      [
        id,
        organizationId,
        input.name,
        input.description,
        input.prompt,
        input.model,
        JSON.stringify(input.scale),
        now,
      ],
    );
    return { id, organizationId, ...input, version: 1, createdAt: now, updatedAt: now };
  }

  /** Replaces the template's fields and increments its version. */
  async update(
    current: EvaluatorTemplateRecord,
    input: EvaluatorTemplateInput,
  ): Promise<EvaluatorTemplateRecord> {
    const row = await this.row<EvaluatorTemplateRow>(
      `UPDATE evaluator_templates SET name = $1, description = $2, prompt = $3, model = $4, scale = $5,
           version = version + 1, updated_at = $6
         WHERE organization_id = $7 AND id = $8 RETURNING *`,
      [
        input.name,
        input.description,
        input.prompt,
        input.model,
        JSON.stringify(input.scale),
        this.clock.now(),
        current.organizationId,
        current.id,
      ],
    );
    // SQLite answers its re-read, which is the missing row's null cast to a record; so does this.
    return (row === undefined ? null : toEvaluatorTemplate(row)) as EvaluatorTemplateRecord;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.rows(
      "DELETE FROM evaluator_templates WHERE organization_id = $1 AND id = $2 RETURNING id",
      [organizationId, id],
    );
    return deleted.length > 0;
  }
}
