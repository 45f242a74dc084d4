/**
 * Rows of the `platform_bash` file system of each conversation (PLATFORM.md §6): one row per
 * file or directory and stage ('' committed, else a held call's id). Content is bytes (a
 * BLOB on SQLite, BYTEA on PostgreSQL: a Buffer from both drivers).
 */

export interface BashFileChange {
  path: string;
  kind: "file" | "dir" | "deleted";
  bytes: Uint8Array | null;
}

/**
 * What the committed tree of a conversation was built from: `dataVersion` changes when another
 * connection (another process) commits to it, and `writes` counts this store's own commits to
 * the conversation's tree. Equal revisions mean an equal committed tree, so a copy kept in
 * memory is still current.
 */
export interface BashTreeRevision {
  dataVersion: number;
  writes: number;
}

export interface BashFileRow {
  path: string;
  kind: "file" | "dir" | "deleted";
  content: Uint8Array | null;
}

/** The committed tree from its rows: path → bytes, or null for a directory. */
export function toBashTree(rows: readonly BashFileRow[]): Map<string, Uint8Array | null> {
  const tree = new Map<string, Uint8Array | null>();
  for (const row of rows) tree.set(row.path, row.kind === "dir" ? null : new Uint8Array(row.content ?? []));
  return tree;
}

/** A staged row as the change it commits. */
export const toBashChange = (row: BashFileRow): BashFileChange => ({
  path: row.path,
  kind: row.kind,
  bytes: row.content === null ? null : new Uint8Array(row.content),
});

/** The bytes a change writes: a file's content, nothing for a directory or a deletion. */
export function bashChangeBytes(change: BashFileChange): Buffer | null {
  return change.kind === "file" && change.bytes !== null ? Buffer.from(change.bytes) : null;
}
