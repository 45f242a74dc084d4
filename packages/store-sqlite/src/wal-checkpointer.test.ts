/**
 * WAL checkpoints on a thread of their own (HP67): while the thread runs, this connection's
 * automatic checkpoints are off and the log still reaches the database file; a thread that
 * cannot start, or stops, gives the connection its automatic checkpoints back.
 */
import { existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchFiles } from "../test/scratch-files.js";
import { openDatabase } from "./database.js";
import { openStore } from "./open-store.js";
import { startWalCheckpointer } from "./wal-checkpointer.js";

const scratch = scratchFiles("gw-wal-");

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const autocheckpoint = (db: ReturnType<typeof openDatabase>) =>
  db.pragma("wal_autocheckpoint", { simple: true });

describe("WAL checkpointer", () => {
  it("copies the log into the database file from its own thread while this connection's checkpoints are off", async () => {
    const file = scratch.file();
    const db = openDatabase(file);
    try {
      db.exec("CREATE TABLE blobs (data BLOB)");
      db.pragma("wal_checkpoint(TRUNCATE)"); // the migrations' pages are in the file before the thread starts
      const before = statSync(file).size;
      const checkpointer = startWalCheckpointer(db, file, 20);
      expect(await checkpointer.started).toBe(true);
      expect(autocheckpoint(db)).toBe(0);
      // 8 MB, ~2,000 pages: past SQLite's own 1,000-page checkpoint, which is off on this connection,
      // so only the thread can have copied them into the file.
      const insert = db.prepare("INSERT INTO blobs VALUES (randomblob(65536))");
      db.transaction(() => {
        for (let i = 0; i < 128; i++) insert.run();
      })();
      await until(() => statSync(file).size > before + 8_000_000);
      checkpointer.stop();
      expect(autocheckpoint(db)).toBe(1_000);
    } finally {
      db.close();
    }
  });

  it("leaves SQLite's own checkpoints on when the thread cannot open the database", async () => {
    const db = openDatabase(scratch.file());
    try {
      const checkpointer = startWalCheckpointer(db, join(tmpdir(), "gw-wal-missing", "nothing.db"), 20);
      expect(await checkpointer.started).toBe(false);
      expect(autocheckpoint(db)).toBe(1_000);
      checkpointer.stop();
    } finally {
      db.close();
    }
  });

  it("is what openStore starts with backgroundCheckpoints for a file (and never for :memory:)", async () => {
    const file = scratch.file();
    const store = openStore({ file, backgroundCheckpoints: true });
    try {
      await until(() => autocheckpoint(store.db) === 0);
      store.organizations.create("acme", "team");
    } finally {
      store.close();
    }
    // Closing waits for the thread's connection, so the store's closes last and removes the log.
    expect(existsSync(`${file}-wal`)).toBe(false);
    const memory = openStore({ file: ":memory:", backgroundCheckpoints: true });
    expect(autocheckpoint(memory.db)).toBe(1_000);
    memory.close();
    // Reopened after the thread's connection closed: everything written is there.
    const again = openStore({ file });
    expect(again.db.prepare("SELECT count(*) FROM organizations").pluck().get()).toBe(1);
    again.close();
  });
});
