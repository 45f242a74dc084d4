/**
 * LLM-judge evaluator templates (PLATFORM.md §9): one row per template, unique by name in the
 * organization, with a `version` counter that every update increments. The rules (limits, scale
 * validation) are the platform's evaluator service; this store reads and writes rows.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  type EvaluatorTemplateInput,
  type EvaluatorTemplateRecord,
  type EvaluatorTemplateRow,
  toEvaluatorTemplate as toRecord,
} from "@groundwork/store-rows";
import { SqliteStore } from "./sqlite-store.js";

export type { EvaluatorTemplateInput, EvaluatorTemplateRecord };

export class EvaluatorTemplateStore extends SqliteStore {
  get(organizationId: string, id: string): EvaluatorTemplateRecord | null {
    const row = this.sql("SELECT * FROM evaluator_templates WHERE organization_id = ? AND id = ?").get(
      organizationId,
      id,
    ) as EvaluatorTemplateRow | undefined;
    return row === undefined ? null : toRecord(row);
  }

  /** The template with this name in the organization (names are compared exactly). */
  findByName(organizationId: string, name: string): EvaluatorTemplateRecord | null {
    const row = this.sql("SELECT * FROM evaluator_templates WHERE organization_id = ? AND name = ?").get(
      organizationId,
      name,
    ) as EvaluatorTemplateRow | undefined;
    return row === undefined ? null : toRecord(row);
  }

  /** Newest first. */
  list(organizationId: string, page: PageRequest): { items: EvaluatorTemplateRecord[]; total: number } {
    const { total } = this.sql(
      "SELECT COUNT(*) AS total FROM evaluator_templates WHERE organization_id = ?",
    ).get(organizationId) as { total: number };
    const rows = this.sql(
      `SELECT * FROM evaluator_templates WHERE organization_id = ?
         ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(organizationId, page.size, pageOffset(page)) as EvaluatorTemplateRow[];
    return { items: rows.map(toRecord), total };
  }

  create(organizationId: string, input: EvaluatorTemplateInput): EvaluatorTemplateRecord {
    const id = this.ids("evt");
    const now = this.clock.now();
    this.sql(
      `INSERT INTO evaluator_templates (id, organization_id, name, description, prompt, model, scale, version, created_at, updated_at)
         VALUES (@id, @organizationId, @name, @description, @prompt, @model, @scale, 1, @now, @now)`,
    ).run({ id, organizationId, ...input, scale: JSON.stringify(input.scale), now });
    return { id, organizationId, ...input, version: 1, createdAt: now, updatedAt: now };
  }

  /** Replaces the template's fields and increments its version. */
  update(current: EvaluatorTemplateRecord, input: EvaluatorTemplateInput): EvaluatorTemplateRecord {
    const now = this.clock.now();
    this.sql(
      `UPDATE evaluator_templates SET name = @name, description = @description, prompt = @prompt, model = @model,
         scale = @scale, version = version + 1, updated_at = @now WHERE organization_id = @organizationId AND id = @id`,
    ).run({
      ...input,
      scale: JSON.stringify(input.scale),
      now,
      id: current.id,
      organizationId: current.organizationId,
    });
    return this.get(current.organizationId, current.id) as EvaluatorTemplateRecord;
  }

  delete(organizationId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM evaluator_templates WHERE organization_id = ? AND id = ?").run(organizationId, id)
        .changes > 0
    );
  }
}
