import { readFileSync } from "node:fs";

/** MB this process (every thread) has read from the disk so far (not from the page cache; 0 where /proc is missing). */
export function diskReadMb(): number {
  try {
    const match = /^read_bytes: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"));
    return Math.round(Number(match?.[1] ?? 0) / 1048576);
  } catch {
    return 0;
  }
}

/** Resident set size in MB, after a full collection when the process runs with --expose-gc. */
export function rssMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().rss / 1048576);
}
