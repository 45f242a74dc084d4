/**
 * Requests per minute and concurrency slots shared through PostgreSQL: the contracts on PGlite
 * and on a real server with two connection pools (what two processes hold), and the lease of a
 * slot whose process stopped.
 */
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../core/test/manual-clock.js";
import {
  describeConcurrencySlotsContract,
  describeRequestCounterContract,
} from "../../core/test/shared-limits-contract.js";
import { createTestDatabase } from "../test/test-database.js";
import { runPostgresMigrations } from "./migrations.js";
import { PostgresConcurrencySlots } from "./postgres-concurrency-slots.js";
import { PostgresRequestCounter } from "./postgres-request-counter.js";
import { fromPGlite, fromPgPool, type PGliteLike, type SqlClient } from "./sql-client.js";

const clear = (client: SqlClient) => client.exec("TRUNCATE request_windows, concurrency_slots");

let lite: SqlClient;
beforeAll(async () => {
  lite = fromPGlite((await PGlite.create()) as unknown as PGliteLike);
  await runPostgresMigrations(lite);
}, 60_000);
afterAll(() => lite.close());
describeRequestCounterContract("PGlite", async () => {
  await clear(lite);
  return [new PostgresRequestCounter(lite), new PostgresRequestCounter(lite)];
});
describeConcurrencySlotsContract("PGlite", async () => {
  await clear(lite);
  return [new PostgresConcurrencySlots(lite), new PostgresConcurrencySlots(lite)];
});

let pools: [SqlClient, SqlClient];
beforeAll(async () => {
  const url = await createTestDatabase("shared_limits");
  pools = [
    fromPgPool(new pg.Pool({ connectionString: url, max: 4 })),
    fromPgPool(new pg.Pool({ connectionString: url, max: 4 })),
  ];
  await runPostgresMigrations(pools[0]);
}, 120_000);
afterAll(async () => {
  await Promise.all((pools ?? []).map((pool) => pool.close()));
});
describeRequestCounterContract("a PostgreSQL server, two pools", async () => {
  await clear(pools[0]);
  return [new PostgresRequestCounter(pools[0]), new PostgresRequestCounter(pools[1])];
});
describeConcurrencySlotsContract("a PostgreSQL server, two pools", async () => {
  await clear(pools[0]);
  return [new PostgresConcurrencySlots(pools[0]), new PostgresConcurrencySlots(pools[1])];
});

describe("slot leases", () => {
  it("gives a stopped process's slot to another once its lease lapses, not before", async () => {
    await clear(pools[0]);
    const clock = new ManualClock();
    const dead = new PostgresConcurrencySlots(pools[0], { clock, leaseMs: 30_000 });
    const alive = new PostgresConcurrencySlots(pools[1], { clock, leaseMs: 30_000 });
    expect(await dead.acquire("org_l", 1)).not.toBeNull();
    dead.abandon();
    clock.advance(29_000);
    expect(await alive.acquire("org_l", 1)).toBeNull();
    clock.advance(2_000);
    const release = await alive.acquire("org_l", 1);
    expect(release).not.toBeNull();
    release?.();
  });

  it("keeps a live process's slot past its first lease by renewing it", async () => {
    await clear(pools[0]);
    const clock = new ManualClock();
    const holder = new PostgresConcurrencySlots(pools[0], { clock, leaseMs: 30_000 });
    const other = new PostgresConcurrencySlots(pools[1], { clock, leaseMs: 30_000 });
    const release = await holder.acquire("org_n", 1);
    clock.advance(20_000);
    await holder.renew();
    clock.advance(20_000);
    expect(await other.acquire("org_n", 1)).toBeNull();
    expect(await other.inUse("org_n")).toBe(1);
    release?.();
  });
});

describe("request windows", () => {
  it("drops windows older than an hour as new ones start", async () => {
    await clear(pools[0]);
    const counter = new PostgresRequestCounter(pools[0]);
    const start = 1_700_000_040_000;
    await counter.admit("org_p", start, null);
    await counter.admit("org_p", start + 60 * 60_000 + 60_000, null);
    expect(await counter.count("org_p", start)).toBe(0);
    expect(await counter.count("org_p", start + 61 * 60_000)).toBe(1);
  });
});
