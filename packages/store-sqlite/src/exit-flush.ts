/**
 * Write-behind queues flushed when the process exits (docs/decisions.md HP14).
 *
 * Usage rows are queued for a few milliseconds and written in one transaction (HP4), so a
 * process that ends before the timer fires would lose them. Node emits `exit` for
 * `process.exit()`, for an uncaught exception or unhandled rejection and when the event loop
 * runs dry, and its listeners may do synchronous work: better-sqlite3 writes synchronously, so
 * every open store writes its queue there. What is left to lose is a death Node does not see
 * (SIGKILL, an out-of-memory kill, a native crash, power): at most the rows of the last window.
 *
 * One process listener serves every open store (tests open hundreds; a listener each would
 * trip Node's leak warning), and a store closed normally takes itself off the list.
 */

/** Anything with a write-behind queue. */
export interface Flushable {
  flush(): void;
}

/**
 * Held weakly: a store dropped without being closed must not be kept alive by this list. While
 * rows are queued its flush timer holds it, so a store that can be collected has nothing queued.
 */
const queues = new Set<WeakRef<Flushable>>();
let listening = false;

function flushAll(): void {
  for (const queue of queues) {
    try {
      queue.deref()?.flush();
    } catch {
      // The process is ending: one store's failure (a full disk) must not stop the others.
    }
  }
}

/** Flushes `queue` when the process exits; the answer takes it off the list (call it on close). */
export function flushAtExit(queue: Flushable): () => void {
  if (!listening) {
    process.on("exit", flushAll);
    listening = true;
  }
  if (queues.size >= 1_024) {
    for (const held of queues) if (held.deref() === undefined) queues.delete(held);
  }
  const held = new WeakRef(queue);
  queues.add(held);
  return () => {
    queues.delete(held);
  };
}
