/**
 * Database files in folders of their own, removed after each test: call `scratchFiles` once at
 * the top of a test file and `file()` wherever a test needs a fresh database file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

export function scratchFiles(prefix: string): { file(): string } {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });
  return {
    file() {
      const directory = mkdtempSync(join(tmpdir(), prefix));
      directories.push(directory);
      return join(directory, "groundwork.db");
    },
  };
}
