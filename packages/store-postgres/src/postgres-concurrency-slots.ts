/**
 * Concurrency slots held as leased rows, so every process on the database shares one limit per
 * key (issue #24). Taking a slot runs under a transaction-scoped advisory lock on the key, so two
 * processes cannot both see the last free slot; lapsed leases (a process that died) are deleted
 * first. While this process holds slots, one timer renews their leases; giving a slot back
 * deletes its row (should that fail, the lease lapses by itself).
 */
import {
  type Clock,
  type ConcurrencySlots,
  defaultIdGenerator,
  type IdGenerator,
  systemClock,
} from "@groundwork/core";
import type { SqlClient } from "./sql-client.js";

/** Distinguishes these advisory locks from the migration lock (two-key form: space, hash of the key). */
const SLOT_LOCK_SPACE = 0x67_77_73_6c; // "gwsl"

export interface PostgresConcurrencySlotsOptions {
  clock?: Clock;
  ids?: IdGenerator;
  /** How long a slot outlives its process; renewed every third of it. Default 30 s. */
  leaseMs?: number;
}

export class PostgresConcurrencySlots implements ConcurrencySlots {
  private readonly clock: Clock;
  private readonly ids: IdGenerator;
  private readonly leaseMs: number;
  private readonly held = new Set<string>();
  private renewal: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly client: SqlClient,
    options: PostgresConcurrencySlotsOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.ids = options.ids ?? defaultIdGenerator;
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  async acquire(key: string, limit: number): Promise<(() => void) | null> {
    const id = this.ids("slot");
    const now = this.clock.now();
    const taken = await this.client.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [SLOT_LOCK_SPACE, key]);
      await tx.query("DELETE FROM concurrency_slots WHERE key = $1 AND expires_at <= $2", [key, now]);
      const { rows } = await tx.query(
        `INSERT INTO concurrency_slots (id, key, expires_at)
         SELECT $1, $2, $3 WHERE (SELECT count(*) FROM concurrency_slots WHERE key = $2) < $4
         RETURNING id`,
        [id, key, now + this.leaseMs, limit],
      );
      return rows.length > 0;
    });
    if (!taken) return null;
    this.held.add(id);
    this.startRenewal();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held.delete(id);
      if (this.held.size === 0) this.stopRenewal();
      this.client.query("DELETE FROM concurrency_slots WHERE id = $1", [id]).catch(() => {
        // The row lapses with its lease; a slot is never given back twice.
      });
    };
  }

  async inUse(key: string): Promise<number> {
    const { rows } = await this.client.query<{ count: string }>(
      "SELECT count(*) AS count FROM concurrency_slots WHERE key = $1 AND expires_at > $2",
      [key, this.clock.now()],
    );
    return Number(rows[0]?.count ?? 0);
  }

  /** Stops renewing without giving slots back: what a process that dies leaves behind (tests, shutdown). */
  abandon(): void {
    this.held.clear();
    this.stopRenewal();
  }

  /** Renews every slot this process holds, now (the timer does it every third of the lease). */
  async renew(): Promise<void> {
    if (this.held.size === 0) return;
    await this.client.query("UPDATE concurrency_slots SET expires_at = $1 WHERE id = ANY($2::text[])", [
      this.clock.now() + this.leaseMs,
      [...this.held],
    ]);
  }

  private startRenewal(): void {
    if (this.renewal !== null) return;
    this.renewal = setInterval(() => {
      this.renew().catch(() => {
        // A missed renewal is retried on the next tick; the lease covers two of them.
      });
    }, this.leaseMs / 3);
    this.renewal.unref();
  }

  private stopRenewal(): void {
    if (this.renewal === null) return;
    clearInterval(this.renewal);
    this.renewal = null;
  }
}
