/**
 * Datasets on PostgreSQL: the counterpart of store-sqlite's `DatasetStore` (same methods, same
 * answers; rows and the block arithmetic from @groundwork/store-rows). Items are revisions
 * stamped with the dataset's epoch; a version freezes the epoch and copies only the per-block
 * item counts. Writes that read the dataset's counters lock its row first (FOR UPDATE), so
 * two writers never take one position or one version number.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  ASCII_LOWER,
  blockCounts,
  type DatasetChanges,
  type DatasetItemRecord,
  type DatasetItemRow,
  type DatasetItemValues,
  type DatasetRecord,
  type DatasetRow,
  type DatasetVersionRecord,
  type DatasetVersionRow,
  datasetBlockOf,
  int,
  pageStartInBlocks,
  toDataset,
  toDatasetItem,
  toDatasetVersion,
} from "@groundwork/store-rows";
import { PostgresFamily, parameters } from "./postgres-family.js";
import type { SqlQueryable } from "./sql-client.js";

const DATASET = `SELECT d.*, (SELECT v.id FROM dataset_versions v
    WHERE v.dataset_id = d.id AND v.version_number = d.epoch - 1) AS latest_version_id
  FROM datasets d`;
const ITEM_COLUMNS =
  "rev, dataset_id, item_id, position, input, expected_output, metadata, source_trace_id, created_at, updated_at, valid_from";

export class PostgresDatasetStore extends PostgresFamily {
  // ---- datasets ----

  async create(
    organizationId: string,
    fields: { name: string; description: string | null; metadata: Record<string, unknown> },
  ): Promise<DatasetRecord> {
    const id = this.ids("ds");
    const now = this.clock.now();
    await this.db.query(
      `INSERT INTO datasets (id, organization_id, name, description, metadata, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [id, organizationId, fields.name, fields.description, JSON.stringify(fields.metadata), now],
    );
    return this.mustGet(organizationId, id);
  }

  async get(organizationId: string, id: string): Promise<DatasetRecord | null> {
    const row = await this.row<DatasetRow>(`${DATASET} WHERE d.organization_id = $1 AND d.id = $2`, [
      organizationId,
      id,
    ]);
    return row === undefined ? null : toDataset(row);
  }

  async findByName(organizationId: string, name: string): Promise<DatasetRecord | null> {
    const row = await this.row<DatasetRow>(`${DATASET} WHERE d.organization_id = $1 AND d.name = $2`, [
      organizationId,
      name,
    ]);
    return row === undefined ? null : toDataset(row);
  }

  /** Newest first; `name` keeps the datasets whose name contains it (case-insensitive for ASCII). */
  async list(
    organizationId: string,
    filter: { name?: string | undefined },
    page: PageRequest,
  ): Promise<{ items: DatasetRecord[]; total: number }> {
    const { values, p } = parameters([organizationId]);
    const byName =
      filter.name !== undefined && filter.name !== ""
        ? ` AND strpos(${ASCII_LOWER("d.name")}, ${ASCII_LOWER(p(filter.name))}) > 0`
        : "";
    const counted = await this.row<{ n: unknown }>(
      `SELECT count(*) AS n FROM datasets d WHERE d.organization_id = $1${byName}`,
      values,
    );
    const rows = await this.rows<DatasetRow>(
      `${DATASET} WHERE d.organization_id = $1${byName} ORDER BY d.created_at DESC, d.id DESC
         LIMIT ${p(page.size)} OFFSET ${p(pageOffset(page))}`,
      values,
    );
    return { items: rows.map(toDataset), total: int(counted?.n) };
  }

  async update(organizationId: string, id: string, changes: DatasetChanges): Promise<DatasetRecord> {
    const { values, p } = parameters();
    const sets: string[] = [];
    if (changes.name !== undefined) sets.push(`name = ${p(changes.name)}`);
    if (changes.description !== undefined) sets.push(`description = ${p(changes.description)}`);
    if (changes.metadata !== undefined) sets.push(`metadata = ${p(JSON.stringify(changes.metadata))}`);
    if (sets.length > 0) {
      await this.db.query(
        `UPDATE datasets SET ${sets.join(", ")}, updated_at = ${p(this.clock.now())}
           WHERE organization_id = ${p(organizationId)} AND id = ${p(id)}`,
        values,
      );
    }
    return this.mustGet(organizationId, id);
  }

  /** Deletes the dataset with every item revision and version. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const { rows } = await this.db.query(
      "DELETE FROM datasets WHERE organization_id = $1 AND id = $2 RETURNING id",
      [organizationId, id],
    );
    return rows.length > 0;
  }

  // ---- items ----

  /** Appends items after the dataset's last one, in the given order; one transaction. */
  async addItems(datasetId: string, items: readonly DatasetItemValues[]): Promise<DatasetItemRecord[]> {
    if (items.length === 0) return [];
    const now = this.clock.now();
    return this.transactionally(async (tx) => {
      const counters = await tx.query<{ next_position: unknown; epoch: unknown }>(
        "SELECT next_position, epoch FROM datasets WHERE id = $1 FOR UPDATE",
        [datasetId],
      );
      const first = int(counters.rows[0]?.next_position);
      const epoch = int(counters.rows[0]?.epoch);
      const records: DatasetItemRecord[] = [];
      const rows: unknown[][] = [];
      for (const [index, item] of items.entries()) {
        const id = this.ids("dsi");
        const json = item.json ?? {
          input: JSON.stringify(item.input),
          expectedOutput: JSON.stringify(item.expectedOutput),
          metadata: JSON.stringify(item.metadata),
        };
        rows.push([id, first + index, json.input, json.expectedOutput, json.metadata, item.sourceTraceId]);
        records.push({
          id,
          datasetId,
          input: item.input,
          expectedOutput: item.expectedOutput,
          metadata: item.metadata,
          sourceTraceId: item.sourceTraceId,
          createdAt: now,
          updatedAt: now,
        });
      }
      // One statement for the whole batch: the columns as arrays, unnested in the given order.
      const column = (index: number) => rows.map((row) => row[index]);
      await tx.query(
        `INSERT INTO dataset_items (dataset_id, item_id, position, input, expected_output, metadata, source_trace_id, created_at, updated_at, valid_from)
           SELECT $1, item_id, position, input, expected_output, metadata, source_trace_id, $8, $8, $9
             FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[])
               WITH ORDINALITY AS t(item_id, position, input, expected_output, metadata, source_trace_id, n)
             ORDER BY n`,
        [datasetId, column(0), column(1), column(2), column(3), column(4), column(5), now, epoch],
      );
      await tx.query(
        `UPDATE datasets SET item_count = item_count + $1, next_position = next_position + $1, updated_at = $2
           WHERE id = $3`,
        [items.length, now, datasetId],
      );
      for (const { block, count } of blockCounts(first, items.length)) {
        await tx.query(
          `INSERT INTO dataset_blocks (dataset_id, block, item_count) VALUES ($1, $2, $3)
             ON CONFLICT (dataset_id, block) DO UPDATE SET item_count = dataset_blocks.item_count + excluded.item_count`,
          [datasetId, block, count],
        );
      }
      return records;
    });
  }

  /** The item's current revision. */
  async getItem(datasetId: string, itemId: string): Promise<DatasetItemRecord | null> {
    const row = await this.currentRow(this.db, datasetId, itemId);
    return row === undefined ? null : toDatasetItem(row);
  }

  /** Changes the current item's expected output and/or metadata. */
  async updateItem(
    datasetId: string,
    itemId: string,
    changes: { expectedOutput?: unknown; metadata?: Record<string, unknown> },
  ): Promise<DatasetItemRecord | null> {
    const now = this.clock.now();
    return this.transactionally(async (tx) => {
      const epoch = await this.lockEpoch(tx, datasetId);
      const current = await this.currentRow(tx, datasetId, itemId);
      if (current === undefined) return null;
      const next: DatasetItemRow = {
        ...current,
        expected_output:
          changes.expectedOutput === undefined
            ? current.expected_output
            : JSON.stringify(changes.expectedOutput),
        metadata: changes.metadata === undefined ? current.metadata : JSON.stringify(changes.metadata),
        updated_at: now,
      };
      if (int(current.valid_from) === epoch) {
        await tx.query(
          "UPDATE dataset_items SET expected_output = $1, metadata = $2, updated_at = $3 WHERE rev = $4",
          [next.expected_output, next.metadata, now, current.rev],
        );
      } else {
        await tx.query("UPDATE dataset_items SET valid_to = $1 WHERE rev = $2", [epoch, current.rev]);
        await tx.query(
          `INSERT INTO dataset_items (dataset_id, item_id, position, input, expected_output, metadata, source_trace_id, created_at, updated_at, valid_from)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            datasetId,
            itemId,
            current.position,
            current.input,
            next.expected_output,
            next.metadata,
            current.source_trace_id,
            current.created_at,
            now,
            epoch,
          ],
        );
      }
      await this.touch(tx, datasetId, now, 0);
      return toDatasetItem(next);
    });
  }

  /** Removes the item from the current set; versions that hold it keep it. */
  async deleteItem(datasetId: string, itemId: string): Promise<boolean> {
    const now = this.clock.now();
    return this.transactionally(async (tx) => {
      const epoch = await this.lockEpoch(tx, datasetId);
      const current = await this.currentRow(tx, datasetId, itemId);
      if (current === undefined) return false;
      if (int(current.valid_from) === epoch)
        await tx.query("DELETE FROM dataset_items WHERE rev = $1", [current.rev]);
      else await tx.query("UPDATE dataset_items SET valid_to = $1 WHERE rev = $2", [epoch, current.rev]);
      await tx.query(
        "UPDATE dataset_blocks SET item_count = item_count - 1 WHERE dataset_id = $1 AND block = $2",
        [datasetId, datasetBlockOf(int(current.position))],
      );
      await this.touch(tx, datasetId, now, -1);
      return true;
    });
  }

  /** Items oldest first (in the order they were added): the current ones, or those frozen in `version`. */
  async listItems(
    datasetId: string,
    version: DatasetVersionRecord | null,
    page: PageRequest,
  ): Promise<{ items: DatasetItemRecord[]; total: number }> {
    const total =
      version === null
        ? int(
            (
              await this.row<{ n: unknown }>("SELECT item_count AS n FROM datasets WHERE id = $1", [
                datasetId,
              ])
            )?.n,
          )
        : version.itemCount;
    const start = await this.pageStart(datasetId, version, pageOffset(page));
    if (start === null) return { items: [], total };
    const rows =
      version === null
        ? await this.rows<DatasetItemRow>(
            `SELECT ${ITEM_COLUMNS} FROM dataset_items
               WHERE dataset_id = $1 AND valid_to IS NULL AND position >= $2
               ORDER BY position LIMIT $3 OFFSET $4`,
            [datasetId, start.from, page.size, start.skip],
          )
        : await this.rows<DatasetItemRow>(
            `SELECT ${ITEM_COLUMNS} FROM dataset_items
               WHERE dataset_id = $1 AND position >= $2 AND valid_from <= $3 AND (valid_to IS NULL OR valid_to > $3)
               ORDER BY position LIMIT $4 OFFSET $5`,
            [datasetId, start.from, version.versionNumber, page.size, start.skip],
          );
    return { items: rows.map(toDatasetItem), total };
  }

  /** Whether the item is in a dataset of the organization: current, or kept by one of its versions. */
  async itemExists(organizationId: string, itemId: string): Promise<boolean> {
    const row = await this.row(
      `SELECT 1 FROM dataset_items i JOIN datasets d ON d.id = i.dataset_id
         WHERE i.item_id = $1 AND d.organization_id = $2 LIMIT 1`,
      [itemId, organizationId],
    );
    return row !== undefined;
  }

  // ---- versions ----

  /** Freezes the current items as the next version: the items are not copied, only the per-block counts. */
  async createVersion(datasetId: string, description: string | null): Promise<DatasetVersionRecord> {
    const now = this.clock.now();
    return this.transactionally(async (tx) => {
      const counters = await tx.query<{ epoch: unknown; item_count: unknown }>(
        "SELECT epoch, item_count FROM datasets WHERE id = $1 FOR UPDATE",
        [datasetId],
      );
      const record: DatasetVersionRecord = {
        id: this.ids("dsv"),
        datasetId,
        versionNumber: int(counters.rows[0]?.epoch),
        description,
        itemCount: int(counters.rows[0]?.item_count),
        createdAt: now,
      };
      await tx.query(
        `INSERT INTO dataset_versions (id, dataset_id, version_number, description, item_count, created_at)
           VALUES ($1, $2, $3, $4, $5, $6)`,
        [record.id, datasetId, record.versionNumber, description, record.itemCount, now],
      );
      await tx.query(
        `INSERT INTO dataset_version_blocks (version_id, block, item_count)
           SELECT $1, block, item_count FROM dataset_blocks WHERE dataset_id = $2 AND item_count > 0`,
        [record.id, datasetId],
      );
      await tx.query("UPDATE datasets SET epoch = epoch + 1, updated_at = $1 WHERE id = $2", [
        now,
        datasetId,
      ]);
      return record;
    });
  }

  async getVersionById(datasetId: string, versionId: string): Promise<DatasetVersionRecord | null> {
    const row = await this.row<DatasetVersionRow>(
      "SELECT * FROM dataset_versions WHERE dataset_id = $1 AND id = $2",
      [datasetId, versionId],
    );
    return row === undefined ? null : toDatasetVersion(row);
  }

  async getVersionByNumber(datasetId: string, versionNumber: number): Promise<DatasetVersionRecord | null> {
    const row = await this.row<DatasetVersionRow>(
      "SELECT * FROM dataset_versions WHERE dataset_id = $1 AND version_number = $2",
      [datasetId, versionNumber],
    );
    return row === undefined ? null : toDatasetVersion(row);
  }

  /** Newest first. */
  async listVersions(
    datasetId: string,
    page: PageRequest,
  ): Promise<{ items: DatasetVersionRecord[]; total: number }> {
    const rows = await this.rows<DatasetVersionRow>(
      "SELECT * FROM dataset_versions WHERE dataset_id = $1 ORDER BY version_number DESC LIMIT $2 OFFSET $3",
      [datasetId, page.size, pageOffset(page)],
    );
    const counted = await this.row<{ n: unknown }>(
      "SELECT count(*) AS n FROM dataset_versions WHERE dataset_id = $1",
      [datasetId],
    );
    return { items: rows.map(toDatasetVersion), total: int(counted?.n) };
  }

  private async mustGet(organizationId: string, id: string): Promise<DatasetRecord> {
    const dataset = await this.get(organizationId, id);
    if (dataset === null) throw new Error(`Dataset ${id} vanished`);
    return dataset;
  }

  /** Where a page starts (see store-rows' `pageStartInBlocks`); null past the last item. */
  private async pageStart(
    datasetId: string,
    version: DatasetVersionRecord | null,
    offset: number,
  ): Promise<{ from: number; skip: number } | null> {
    if (offset === 0) return { from: 0, skip: 0 };
    const blocks =
      version === null
        ? await this.rows<{ block: unknown; item_count: unknown }>(
            "SELECT block, item_count FROM dataset_blocks WHERE dataset_id = $1 AND item_count > 0 ORDER BY block",
            [datasetId],
          )
        : await this.rows<{ block: unknown; item_count: unknown }>(
            "SELECT block, item_count FROM dataset_version_blocks WHERE version_id = $1 ORDER BY block",
            [version.id],
          );
    return pageStartInBlocks(blocks, offset);
  }

  private async currentRow(
    db: SqlQueryable,
    datasetId: string,
    itemId: string,
  ): Promise<DatasetItemRow | undefined> {
    const { rows } = await db.query<DatasetItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM dataset_items WHERE item_id = $1 AND dataset_id = $2 AND valid_to IS NULL`,
      [itemId, datasetId],
    );
    return rows[0];
  }

  /** The dataset's epoch, its row locked until the transaction ends. */
  private async lockEpoch(tx: SqlQueryable, datasetId: string): Promise<number> {
    const { rows } = await tx.query<{ epoch: unknown }>(
      "SELECT epoch FROM datasets WHERE id = $1 FOR UPDATE",
      [datasetId],
    );
    return int(rows[0]?.epoch);
  }

  private async touch(tx: SqlQueryable, datasetId: string, now: number, countChange: number): Promise<void> {
    await tx.query("UPDATE datasets SET item_count = item_count + $1, updated_at = $2 WHERE id = $3", [
      countChange,
      now,
      datasetId,
    ]);
  }
}
