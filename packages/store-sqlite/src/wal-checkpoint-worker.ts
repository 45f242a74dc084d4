/**
 * The checkpoint thread (HP67): its own connection to the database file runs WAL checkpoints
 * every `everyMs`, so that copying the log into the database and the two fsyncs around it never
 * hold the serving thread, whose connection has SQLite's automatic checkpoints turned off. A
 * PASSIVE checkpoint waits for no reader nor writer, as the automatic one does; with nothing new
 * in the log it costs a few microseconds.
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import type { CheckpointerInput, CheckpointerMessage } from "./wal-checkpointer.js";

if (parentPort === null) throw new Error("wal-checkpoint-worker runs as a worker thread");
const port: MessagePort = parentPort;
const input = workerData as CheckpointerInput;
const { file, everyMs } = input;
const closed = new Int32Array(input.closed);
const post = (message: CheckpointerMessage) => port.postMessage(message);

/** Tells a stopping store its connection may now close last (it waits on this). */
function done(): void {
  Atomics.store(closed, 0, 1);
  Atomics.notify(closed, 0);
  port.close();
}

try {
  const db = new Database(file, { fileMustExist: true });
  const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  const timer = setInterval(() => {
    try {
      checkpoint.run();
    } catch (error) {
      clearInterval(timer);
      db.close();
      post({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
      done();
    }
  }, everyMs);
  port.on("message", (message: "stop") => {
    if (message !== "stop") return;
    clearInterval(timer);
    if (db.open) db.close();
    done();
  });
  post({ kind: "ready" });
} catch (error) {
  post({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
  done();
}
