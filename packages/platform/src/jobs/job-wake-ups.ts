/**
 * Wake-ups for the workers of this process when any process enqueues a job on the same database
 * (decision PG192). A queue that can tell (PostgreSQL's `onEnqueued`, LISTEN/NOTIFY on one
 * dedicated connection) is listened to once per queue, however many services' workers run in the
 * process: each started worker subscribes to the kinds it handles, the first subscriber opens
 * the listening connection and the last one to leave closes it. A queue that cannot tell (SQLite,
 * one process: `submit` pokes its own worker) is not listened to. Polling stays the fallback: a
 * listen that fails, or a dropped listening connection, only costs the wake-ups.
 */
import type { JobQueue } from "@groundwork/core";

/** A queue that calls `wake` with the kind of each job enqueued by any process on its database. */
export interface EnqueueWakeUps {
  onEnqueued(wake: (kind: string) => void): Promise<() => Promise<void>>;
}

export function hasWakeUps(jobs: JobQueue): jobs is JobQueue & EnqueueWakeUps {
  return typeof (jobs as Partial<EnqueueWakeUps>).onEnqueued === "function";
}

interface Listening {
  subscribers: Set<(kind: string) => void>;
  /** Settles when LISTEN is in place; resolves to the stop, or null when listening failed. */
  stop: Promise<(() => Promise<void>) | null>;
}

const listening = new WeakMap<JobQueue, Listening>();

/**
 * Calls `wake` with the kind of each job enqueued anywhere on the queue's database; answers the
 * unsubscribe (which closes the listening connection when it was the last subscriber), or null
 * when the queue cannot tell. `ready` settles once the first subscription's LISTEN is in place.
 */
export function subscribeToEnqueued(
  jobs: JobQueue,
  wake: (kind: string) => void,
): { ready: Promise<void>; unsubscribe: () => Promise<void> } | null {
  if (!hasWakeUps(jobs)) return null;
  let entry = listening.get(jobs);
  if (entry === undefined) {
    const subscribers = new Set<(kind: string) => void>();
    const stop = jobs
      .onEnqueued((kind) => {
        for (const subscriber of subscribers) subscriber(kind);
      })
      .catch(() => null);
    entry = { subscribers, stop };
    listening.set(jobs, entry);
  }
  const current = entry;
  current.subscribers.add(wake);
  return {
    ready: current.stop.then(() => undefined),
    unsubscribe: async () => {
      if (!current.subscribers.delete(wake) || current.subscribers.size > 0) return;
      if (listening.get(jobs) === current) listening.delete(jobs);
      const stop = await current.stop;
      await stop?.().catch(() => undefined);
    },
  };
}
