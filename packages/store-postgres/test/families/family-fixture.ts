/**
 * What a family contract runs on: a store family (SQLite's, synchronous, or PostgreSQL's,
 * asynchronous — the contract awaits every call either way), a clock the test moves, and fresh
 * organizations — rows on both stores, since every tenant table references `organizations`
 * (PostgreSQL migration 50, decision PG160). `postgresOrganization` is the one way a
 * PostgreSQL test makes one.
 */
import { randomBytes } from "node:crypto";
import { type Clock, type Plan, systemClock } from "@groundwork/core";
import { afterEach, beforeEach } from "vitest";
import { openStore, type Store } from "../../../store-sqlite/src/open-store.js";
import { PostgresOrganizationStore } from "../../src/postgres-organizations.js";
import type { SqlClient } from "../../src/sql-client.js";

/** A clock a test sets; starts at a fixed instant so both stores see the same times. */
export interface TestClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function testClock(start = 1_700_000_000_000): TestClock {
  let now = start;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

export interface Backend {
  /** A fresh organization id, as a row where the store has organizations. */
  organization(): Promise<string>;
  /** A fresh member (API key) of the organization: its id and shown prefix. */
  member(organizationId: string, name: string): Promise<{ id: string; prefix: string }>;
  /** A fresh conversation of the organization (without an agent), as the agents family creates one. */
  conversation(organizationId: string): Promise<string>;
  /** Revokes a member's key. */
  revokeMember(id: string): Promise<void>;
  /** The SQLite store when the backend is SQLite (fixtures that need its other families). */
  sqlite?: Store;
  /** The PostgreSQL client when the backend is PostgreSQL. */
  postgres?: SqlClient;
}

export function freshId(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString("hex")}`;
}

/**
 * The family under test, reopened for each test with a fresh clock: `make` builds it on the
 * backend. The getter is valid inside tests.
 */
export function familyUnderTest<F>(
  open: (clock: TestClock) => Promise<{ family: F; backend: Backend; close(): Promise<void> | void }>,
): { clock: TestClock; family(): F; backend(): Backend } {
  const clock = testClock();
  let current: { family: F; backend: Backend; close(): Promise<void> | void } | undefined;
  beforeEach(async () => {
    clock.set(1_700_000_000_000);
    current = await open(clock);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const ready = () => {
    if (current === undefined) throw new Error("the family is open only inside tests");
    return current;
  };
  return { clock, family: () => ready().family, backend: () => ready().backend };
}

/** A SQLite store in memory with the test's clock: the reference every contract runs on first. */
export function openSqlite(
  clock: Clock,
  file = ":memory:",
): { store: Store; backend: Backend; close(): void } {
  const store = openStore({ file, clock, secret: "a test master secret of some length" });
  return {
    store,
    backend: {
      organization: async () => store.organizations.create(freshId("org"), "enterprise").id,
      member: async (organizationId, name) => {
        const { record } = store.apiKeys.create({ organizationId, role: "member", name });
        return { id: record.id, prefix: record.prefix };
      },
      revokeMember: async (id) => {
        store.apiKeys.revoke(id);
      },
      conversation: async (organizationId) => store.agents.createConversation(organizationId, null, "ask").id,
      sqlite: store,
    },
    close: () => store.close(),
  };
}

/**
 * The columns of store-sqlite's `api_keys` that the memory listing reads. The api-keys family is
 * ported by another change; until it merges, a test creates this table when it is missing and
 * writes keys as rows (with every NOT NULL column of SQLite's table, so the rows fit the ported
 * table too). Organizations likewise get a row when their table exists.
 */
const API_KEYS_UNTIL_PORTED = `CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT COLLATE "C" PRIMARY KEY,
  organization_id TEXT NOT NULL,
  name TEXT NOT NULL,
  role TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  revoked_at BIGINT
)`;

/**
 * A fresh organization row on a migrated PostgreSQL database, through the organizations store;
 * its name is unique on the database (test files share one server and run again on it).
 */
export async function postgresOrganization(
  client: SqlClient,
  clock: Clock = systemClock,
  plan: Plan = "enterprise",
): Promise<string> {
  return (await new PostgresOrganizationStore(client, clock).create(freshId("org"), plan)).id;
}

/** A PostgreSQL backend over a migrated client (test/postgres-backends.ts). */
export function postgresBackend(client: SqlClient, clock: Clock): Backend {
  return {
    organization: () => postgresOrganization(client, clock),
    member: async (organizationId, name) => {
      await client.exec(API_KEYS_UNTIL_PORTED);
      const id = freshId("key");
      const prefix = `gw_${id.slice(4, 12)}`;
      await client.query(
        `INSERT INTO api_keys (id, organization_id, name, role, prefix, key_hash, created_at)
           VALUES ($1, $2, $3, 'member', $4, $5, $6)`,
        [id, organizationId, name, prefix, freshId("hash"), clock.now()],
      );
      return { id, prefix };
    },
    revokeMember: async (id) => {
      await client.query("UPDATE api_keys SET revoked_at = $2 WHERE id = $1", [id, clock.now()]);
    },
    conversation: async (organizationId) => {
      const id = freshId("conv");
      await client.query(
        `INSERT INTO agent_conversations (id, organization_id, agent_id, mode, created_at, updated_at)
           VALUES ($1, $2, NULL, 'ask', $3, $3)`,
        [id, organizationId, clock.now()],
      );
      return id;
    },
    postgres: client,
  };
}

/** Methods of a family as awaited by a contract: each may answer a value or a Promise. */
export type Awaitable<F> = {
  [K in keyof F]: F[K] extends (...args: infer A) => infer R ? (...args: A) => R | Promise<Awaited<R>> : F[K];
};

/** `atomically` as both stores have it (typed by hand: a generic member does not survive a mapped type). */
export interface Atomic {
  atomically<T>(work: () => Promise<T>): Promise<T> | T;
}
