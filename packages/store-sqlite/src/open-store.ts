import { type Clock, defaultIdGenerator, type IdGenerator, systemClock } from "@groundwork/core";
import { ApiKeyStore } from "./api-keys.js";
import { type Database, openDatabase } from "./database.js";
import { OrganizationStore } from "./organizations.js";
import { SqliteJobQueue } from "./sqlite-job-queue.js";

export interface Store {
  readonly db: Database;
  readonly organizations: OrganizationStore;
  readonly apiKeys: ApiKeyStore;
  readonly jobs: SqliteJobQueue;
  close(): void;
}

export interface OpenStoreOptions {
  /** Database file, or `:memory:`. */
  file: string;
  clock?: Clock;
  ids?: IdGenerator;
}

/** Opens (and migrates) the database and wires the stores that share it. */
export function openStore(options: OpenStoreOptions): Store {
  const db = openDatabase(options.file);
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? defaultIdGenerator;
  return {
    db,
    organizations: new OrganizationStore(db, clock, ids),
    apiKeys: new ApiKeyStore(db, clock, ids),
    jobs: new SqliteJobQueue(db, clock, ids),
    close() {
      if (db.open) db.close();
    },
  };
}
