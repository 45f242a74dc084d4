/**
 * Reads a knowledge base's vector packs on a worker thread (kb-pack-reader-worker.ts, HP63), so
 * a cold start's disk reads overlap work on the main thread (the keyword leg's load) instead of
 * coming before it. Messages arrive in order: what is served, then one per served revision, then
 * the end; each is handed to `onMessage` as the main thread's event loop gets to it.
 */
import type { PackParts } from "@groundwork/kb";
import { startWorker } from "./worker-thread.js";

export interface PackReaderInput {
  file: string;
  knowledgeBaseId: string;
  /** At most this many served vectors: no packs are read (the knowledge base is searched exactly). */
  exactBelow: number;
}

export type PackReaderMessage =
  /** The snapshot the packs come from; `dim` is null when no pack follows (few or no vectors). */
  | { kind: "served"; generation: number; served: number; dim: number | null }
  /** One served revision; `parts` is null when it has no pack yet. */
  | { kind: "pack"; revision: string; document: string; parts: PackParts | null }
  | { kind: "done" }
  | { kind: "failed"; message: string };

/** Resolves once every pack was handed over; rejects when the thread fails (nothing half-handed is kept by the caller). */
export function readServedPacks(
  input: PackReaderInput,
  onMessage: (message: PackReaderMessage) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = startWorker("kb-pack-reader-worker", input);
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      if (error === null) resolve();
      else reject(error);
    };
    worker.on("message", (message: PackReaderMessage) => {
      if (settled) return;
      if (message.kind === "failed")
        return settle(new Error(`Reading the vector packs failed: ${message.message}`));
      try {
        onMessage(message);
      } catch (error) {
        void worker.terminate();
        return settle(error instanceof Error ? error : new Error(String(error)));
      }
      if (message.kind === "done") settle(null);
    });
    worker.on("error", (error) => settle(error));
    worker.on("exit", (code) =>
      settle(new Error(`The vector pack reader stopped (exit code ${code}) before it was done`)),
    );
  });
}
