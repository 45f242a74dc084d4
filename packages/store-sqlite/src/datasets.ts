/**
 * Datasets (PLATFORM.md §8): datasets, their items and immutable versions.
 *
 * Items are stored as revisions stamped with the dataset's epoch — the number the next
 * version will get. Freezing a version ends the epoch and copies the item counts per block
 * of 1024 positions (about 100 rows for 100,000 items; the items are not copied); version N
 * shows the revisions with
 * `valid_from <= N AND (valid_to IS NULL OR valid_to > N)`. An edit or delete of a
 * revision that no version has seen (`valid_from` = the epoch) changes it in place;
 * otherwise it closes the revision (`valid_to` = the epoch) and, for an edit, adds the
 * next one with the same item id and position. The rules (limits, validation) are the
 * platform's dataset service's; callers run its read-check-write in `atomically`. The block
 * counts let a page deep in a large dataset seek to its block instead of skipping every
 * item before it with OFFSET.
 */
import { type PageRequest, pageOffset } from "@groundwork/core";
import {
  blockCounts,
  datasetBlockOf as blockOf,
  type DatasetChanges,
  type DatasetItemRecord,
  type DatasetItemValues,
  type DatasetRecord,
  type DatasetRow,
  type DatasetVersionRecord,
  type DatasetItemRow as ItemRow,
  pageStartInBlocks,
  toDataset,
  toDatasetItem as toItem,
  toDatasetVersion as toVersion,
  type DatasetVersionRow as VersionRow,
} from "@groundwork/store-rows";
import { SqliteStore } from "./sqlite-store.js";

export type { DatasetChanges, DatasetItemRecord, DatasetItemValues, DatasetRecord, DatasetVersionRecord };

const DATASET = `SELECT d.*, (SELECT v.id FROM dataset_versions v
    WHERE v.dataset_id = d.id AND v.version_number = d.epoch - 1) AS latest_version_id
  FROM datasets d`;
const ITEM_COLUMNS =
  "rev, dataset_id, item_id, position, input, expected_output, metadata, source_trace_id, created_at, updated_at, valid_from";

export class DatasetStore extends SqliteStore {
  // ---- datasets ----

  create(
    organizationId: string,
    fields: { name: string; description: string | null; metadata: Record<string, unknown> },
  ): DatasetRecord {
    const id = this.ids("ds");
    const now = this.clock.now();
    this.sql(
      `INSERT INTO datasets (id, organization_id, name, description, metadata, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, organizationId, fields.name, fields.description, JSON.stringify(fields.metadata), now, now);
    return this.mustGet(organizationId, id);
  }

  get(organizationId: string, id: string): DatasetRecord | null {
    const row = this.sql(`${DATASET} WHERE d.organization_id = ? AND d.id = ?`).get(organizationId, id) as
      | DatasetRow
      | undefined;
    return row === undefined ? null : toDataset(row);
  }

  findByName(organizationId: string, name: string): DatasetRecord | null {
    const row = this.sql(`${DATASET} WHERE d.organization_id = ? AND d.name = ?`).get(organizationId, name) as
      | DatasetRow
      | undefined;
    return row === undefined ? null : toDataset(row);
  }

  /** Newest first; `name` keeps the datasets whose name contains it (case-insensitive for ASCII). */
  list(
    organizationId: string,
    filter: { name?: string | undefined },
    page: PageRequest,
  ): { items: DatasetRecord[]; total: number } {
    const byName = filter.name !== undefined && filter.name !== "";
    const where = `d.organization_id = ?${byName ? " AND instr(lower(d.name), lower(?)) > 0" : ""}`;
    const params: unknown[] = byName ? [organizationId, filter.name] : [organizationId];
    const { n } = this.sql(`SELECT count(*) AS n FROM datasets d WHERE ${where}`).get(...params) as {
      n: number;
    };
    const rows = this.sql(
      `${DATASET} WHERE ${where} ORDER BY d.created_at DESC, d.id DESC LIMIT ? OFFSET ?`,
    ).all(...params, page.size, pageOffset(page)) as DatasetRow[];
    return { items: rows.map(toDataset), total: n };
  }

  update(organizationId: string, id: string, changes: DatasetChanges): DatasetRecord {
    const sets: string[] = [];
    const params: unknown[] = [];
    if (changes.name !== undefined) {
      sets.push("name = ?");
      params.push(changes.name);
    }
    if (changes.description !== undefined) {
      sets.push("description = ?");
      params.push(changes.description);
    }
    if (changes.metadata !== undefined) {
      sets.push("metadata = ?");
      params.push(JSON.stringify(changes.metadata));
    }
    if (sets.length > 0) {
      this.sql(
        `UPDATE datasets SET ${sets.join(", ")}, updated_at = ? WHERE organization_id = ? AND id = ?`,
      ).run(...params, this.clock.now(), organizationId, id);
    }
    return this.mustGet(organizationId, id);
  }

  /** Deletes the dataset with every item revision and version. */
  delete(organizationId: string, id: string): boolean {
    return (
      this.sql("DELETE FROM datasets WHERE organization_id = ? AND id = ?").run(organizationId, id).changes >
      0
    );
  }

  // ---- items ----

  /** Appends items after the dataset's last one, in the given order; one transaction. */
  addItems(datasetId: string, items: readonly DatasetItemValues[]): DatasetItemRecord[] {
    if (items.length === 0) return [];
    const now = this.clock.now();
    return this.db.transaction(() => {
      const { next_position: first, epoch } = this.sql(
        "SELECT next_position, epoch FROM datasets WHERE id = ?",
      ).get(datasetId) as { next_position: number; epoch: number };
      const insert = this.sql(
        `INSERT INTO dataset_items (dataset_id, item_id, position, input, expected_output, metadata, source_trace_id, created_at, updated_at, valid_from)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const records = items.map((item, index): DatasetItemRecord => {
        const id = this.ids("dsi");
        const json = item.json ?? {
          input: JSON.stringify(item.input),
          expectedOutput: JSON.stringify(item.expectedOutput),
          metadata: JSON.stringify(item.metadata),
        };
        insert.run(
          datasetId,
          id,
          first + index,
          json.input,
          json.expectedOutput,
          json.metadata,
          item.sourceTraceId,
          now,
          now,
          epoch,
        );
        return {
          id,
          datasetId,
          input: item.input,
          expectedOutput: item.expectedOutput,
          metadata: item.metadata,
          sourceTraceId: item.sourceTraceId,
          createdAt: now,
          updatedAt: now,
        };
      });
      this.sql(
        `UPDATE datasets SET item_count = item_count + ?, next_position = next_position + ?, updated_at = ?
           WHERE id = ?`,
      ).run(items.length, items.length, now, datasetId);
      for (const { block, count } of blockCounts(first, items.length)) {
        this.sql(
          `INSERT INTO dataset_blocks (dataset_id, block, item_count) VALUES (?, ?, ?)
             ON CONFLICT (dataset_id, block) DO UPDATE SET item_count = item_count + excluded.item_count`,
        ).run(datasetId, block, count);
      }
      return records;
    })();
  }

  /** The item's current revision. */
  getItem(datasetId: string, itemId: string): DatasetItemRecord | null {
    const row = this.currentRow(datasetId, itemId);
    return row === undefined ? null : toItem(row);
  }

  /** Changes the current item's expected output and/or metadata. */
  updateItem(
    datasetId: string,
    itemId: string,
    changes: { expectedOutput?: unknown; metadata?: Record<string, unknown> },
  ): DatasetItemRecord | null {
    const now = this.clock.now();
    return this.db.transaction(() => {
      const current = this.currentRow(datasetId, itemId);
      if (current === undefined) return null;
      const next: ItemRow = {
        ...current,
        expected_output:
          changes.expectedOutput === undefined
            ? current.expected_output
            : JSON.stringify(changes.expectedOutput),
        metadata: changes.metadata === undefined ? current.metadata : JSON.stringify(changes.metadata),
        updated_at: now,
      };
      const epoch = this.epochOf(datasetId);
      if (current.valid_from === epoch) {
        this.sql(
          "UPDATE dataset_items SET expected_output = ?, metadata = ?, updated_at = ? WHERE rev = ?",
        ).run(next.expected_output, next.metadata, now, current.rev);
      } else {
        this.sql("UPDATE dataset_items SET valid_to = ? WHERE rev = ?").run(epoch, current.rev);
        this.sql(
          `INSERT INTO dataset_items (dataset_id, item_id, position, input, expected_output, metadata, source_trace_id, created_at, updated_at, valid_from)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
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
        );
      }
      this.touch(datasetId, now, 0);
      return toItem(next);
    })();
  }

  /** Removes the item from the current set; versions that hold it keep it. */
  deleteItem(datasetId: string, itemId: string): boolean {
    const now = this.clock.now();
    return this.db.transaction(() => {
      const current = this.currentRow(datasetId, itemId);
      if (current === undefined) return false;
      const epoch = this.epochOf(datasetId);
      if (current.valid_from === epoch) this.sql("DELETE FROM dataset_items WHERE rev = ?").run(current.rev);
      else this.sql("UPDATE dataset_items SET valid_to = ? WHERE rev = ?").run(epoch, current.rev);
      this.sql(
        "UPDATE dataset_blocks SET item_count = item_count - 1 WHERE dataset_id = ? AND block = ?",
      ).run(datasetId, blockOf(Number(current.position)));
      this.touch(datasetId, now, -1);
      return true;
    })();
  }

  /** Items oldest first (in the order they were added): the current ones, or those frozen in `version`. */
  listItems(
    datasetId: string,
    version: DatasetVersionRecord | null,
    page: PageRequest,
  ): { items: DatasetItemRecord[]; total: number } {
    const total =
      version === null
        ? (this.sql("SELECT item_count AS n FROM datasets WHERE id = ?").get(datasetId) as { n: number }).n
        : version.itemCount;
    const start = this.pageStart(datasetId, version, pageOffset(page));
    if (start === null) return { items: [], total };
    const rows = (
      version === null
        ? this.sql(
            `SELECT ${ITEM_COLUMNS} FROM dataset_items INDEXED BY dataset_items_current
               WHERE dataset_id = ? AND valid_to IS NULL AND position >= ?
               ORDER BY position LIMIT ? OFFSET ?`,
          ).all(datasetId, start.from, page.size, start.skip)
        : this.sql(
            `SELECT ${ITEM_COLUMNS} FROM dataset_items INDEXED BY dataset_items_frozen
               WHERE dataset_id = ? AND position >= ? AND valid_from <= ? AND (valid_to IS NULL OR valid_to > ?)
               ORDER BY position LIMIT ? OFFSET ?`,
          ).all(datasetId, start.from, version.versionNumber, version.versionNumber, page.size, start.skip)
    ) as ItemRow[];
    return { items: rows.map(toItem), total };
  }

  /** Whether the item is in a dataset of the organization: current, or kept by one of its versions. */
  itemExists(organizationId: string, itemId: string): boolean {
    return (
      this.sql(
        `SELECT 1 FROM dataset_items i JOIN datasets d ON d.id = i.dataset_id
           WHERE i.item_id = ? AND d.organization_id = ? LIMIT 1`,
      ).get(itemId, organizationId) !== undefined
    );
  }

  // ---- versions ----

  /** Freezes the current items as the next version: the items are not copied, only the per-block counts. */
  createVersion(datasetId: string, description: string | null): DatasetVersionRecord {
    const now = this.clock.now();
    return this.db.transaction(() => {
      const { epoch, item_count: itemCount } = this.sql(
        "SELECT epoch, item_count FROM datasets WHERE id = ?",
      ).get(datasetId) as { epoch: number; item_count: number };
      const record: DatasetVersionRecord = {
        id: this.ids("dsv"),
        datasetId,
        versionNumber: epoch,
        description,
        itemCount,
        createdAt: now,
      };
      this.sql(
        `INSERT INTO dataset_versions (id, dataset_id, version_number, description, item_count, created_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(record.id, datasetId, epoch, description, itemCount, now);
      this.sql(
        `INSERT INTO dataset_version_blocks (version_id, block, item_count)
           SELECT ?, block, item_count FROM dataset_blocks WHERE dataset_id = ? AND item_count > 0`,
      ).run(record.id, datasetId);
      this.sql("UPDATE datasets SET epoch = epoch + 1, updated_at = ? WHERE id = ?").run(now, datasetId);
      return record;
    })();
  }

  getVersionById(datasetId: string, versionId: string): DatasetVersionRecord | null {
    const row = this.sql("SELECT * FROM dataset_versions WHERE dataset_id = ? AND id = ?").get(
      datasetId,
      versionId,
    ) as VersionRow | undefined;
    return row === undefined ? null : toVersion(row);
  }

  getVersionByNumber(datasetId: string, versionNumber: number): DatasetVersionRecord | null {
    const row = this.sql("SELECT * FROM dataset_versions WHERE dataset_id = ? AND version_number = ?").get(
      datasetId,
      versionNumber,
    ) as VersionRow | undefined;
    return row === undefined ? null : toVersion(row);
  }

  /** Newest first. */
  listVersions(datasetId: string, page: PageRequest): { items: DatasetVersionRecord[]; total: number } {
    const rows = this.sql(
      "SELECT * FROM dataset_versions WHERE dataset_id = ? ORDER BY version_number DESC LIMIT ? OFFSET ?",
    ).all(datasetId, page.size, pageOffset(page)) as VersionRow[];
    const { n } = this.sql("SELECT count(*) AS n FROM dataset_versions WHERE dataset_id = ?").get(
      datasetId,
    ) as {
      n: number;
    };
    return { items: rows.map(toVersion), total: n };
  }

  private mustGet(organizationId: string, id: string): DatasetRecord {
    const dataset = this.get(organizationId, id);
    if (dataset === null) throw new Error(`Dataset ${id} vanished`);
    return dataset;
  }

  /**
   * Where a page starts: the first position of the block that holds the `offset`-th item,
   * and how many items of that block come before it; null past the last item.
   */
  private pageStart(
    datasetId: string,
    version: DatasetVersionRecord | null,
    offset: number,
  ): { from: number; skip: number } | null {
    if (offset === 0) return { from: 0, skip: 0 };
    const blocks = (
      version === null
        ? this.sql(
            "SELECT block, item_count FROM dataset_blocks WHERE dataset_id = ? AND item_count > 0 ORDER BY block",
          ).all(datasetId)
        : this.sql(
            "SELECT block, item_count FROM dataset_version_blocks WHERE version_id = ? ORDER BY block",
          ).all(version.id)
    ) as Array<{ block: number; item_count: number }>;
    return pageStartInBlocks(blocks, offset);
  }

  private currentRow(datasetId: string, itemId: string): ItemRow | undefined {
    return this.sql(
      `SELECT ${ITEM_COLUMNS} FROM dataset_items WHERE item_id = ? AND dataset_id = ? AND valid_to IS NULL`,
    ).get(itemId, datasetId) as ItemRow | undefined;
  }

  private epochOf(datasetId: string): number {
    return (this.sql("SELECT epoch FROM datasets WHERE id = ?").get(datasetId) as { epoch: number }).epoch;
  }

  private touch(datasetId: string, now: number, countChange: number): void {
    this.sql("UPDATE datasets SET item_count = item_count + ?, updated_at = ? WHERE id = ?").run(
      countChange,
      now,
      datasetId,
    );
  }
}
