/**
 * WAL checkpoints off the serving thread (HP67). SQLite checkpoints on the connection whose
 * commit pushes the log past 1,000 pages: that commit then copies the log into the database and
 * waits for two fsyncs, and every request on the event loop waits with it. With the checkpointer,
 * a thread of its own (wal-checkpoint-worker.ts) checkpoints every `everyMs` and this connection's
 * automatic checkpoints are off while the thread runs; a thread that fails or stops gives them back.
 * Stopping waits (a few milliseconds, at most `STOP_WAIT_MS`) until the thread's connection is
 * closed: the store's connection must close last, for SQLite to checkpoint the log and remove it.
 */
import type { Database } from "better-sqlite3";
import { startWorker } from "./worker-thread.js";

export interface CheckpointerInput {
  file: string;
  everyMs: number;
  /** One Int32 the thread sets to 1 (and notifies) once its connection is closed or never opened. */
  closed: SharedArrayBuffer;
}

export type CheckpointerMessage = { kind: "ready" } | { kind: "failed"; message: string };

/** SQLite's default: a checkpoint once the log holds this many pages. */
const AUTOCHECKPOINT_PAGES = 1_000;
/** At a gateway's full rate the log grows ~500 pages a second, so it stays near SQLite's own size. */
export const CHECKPOINT_EVERY_MS = 1_000;
/** The longest a stop waits for the thread's connection to close (one checkpoint in progress). */
const STOP_WAIT_MS = 5_000;

export interface WalCheckpointer {
  /** Stops the thread (it closes its connection) and gives this connection its automatic checkpoints back. */
  stop(): void;
  /** Resolves once the thread checkpoints (true) or could not start (false): tests and diagnostics. */
  readonly started: Promise<boolean>;
}

/** Starts the checkpoint thread for `db`, a file database in WAL mode. */
export function startWalCheckpointer(
  db: Database,
  file: string,
  everyMs: number = CHECKPOINT_EVERY_MS,
): WalCheckpointer {
  const closed = new Int32Array(new SharedArrayBuffer(4));
  const worker = startWorker("wal-checkpoint-worker", {
    file,
    everyMs,
    closed: closed.buffer as SharedArrayBuffer,
  } satisfies CheckpointerInput);
  // The thread must not keep a process alive that has nothing else to do.
  worker.unref();
  let running = false;
  let stopped = false;
  let exited = false;
  const inline = () => {
    running = false;
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  const started = new Promise<boolean>((resolve) => {
    worker.on("message", (message: CheckpointerMessage) => {
      if (message.kind === "ready") {
        if (db.open && !stopped) {
          db.pragma("wal_autocheckpoint = 0");
          running = true;
        }
        resolve(running);
      } else {
        inline();
        resolve(false);
      }
    });
    worker.on("error", () => {
      exited = true;
      inline();
      resolve(false);
    });
    worker.on("exit", () => {
      exited = true;
      if (running) inline();
      resolve(false);
    });
  });
  return {
    started,
    stop() {
      if (stopped) return;
      stopped = true;
      if (running) inline();
      worker.postMessage("stop");
      // Blocking, but short: the thread answers between two checkpoints (close() is synchronous).
      if (!exited) Atomics.wait(closed, 0, 0, STOP_WAIT_MS);
    },
  };
}
