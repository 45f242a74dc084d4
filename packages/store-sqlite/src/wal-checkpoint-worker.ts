/**
 * The checkpoint thread (HP67): its own connection to the database file runs WAL checkpoints
 * every `everyMs`, so that copying the log into the database and the two fsyncs around it never
 * hold the serving thread, whose connection has SQLite's automatic checkpoints turned off. A
 * PASSIVE checkpoint waits for no reader nor writer, as the automatic one does; with nothing new
 * in the log it costs a few microseconds.
 */
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import type { CheckpointerInput, CheckpointerMessage } from "./wal-checkpointer.js";

const port = parentPort;
if (port === null) throw new Error("wal-checkpoint-worker runs as a worker thread");
const { file, everyMs } = workerData as CheckpointerInput;
const post = (message: CheckpointerMessage) => port.postMessage(message);

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
      port.close();
    }
  }, everyMs);
  port.on("message", (message: "stop") => {
    if (message !== "stop") return;
    clearInterval(timer);
    db.close();
    port.close();
  });
  post({ kind: "ready" });
} catch (error) {
  post({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
  port.close();
}
