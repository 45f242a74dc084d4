/**
 * `groundwork serve` warms large knowledge bases after it starts listening (HP68): one log line
 * per knowledge base serving at least GROUNDWORK_KB_WARM_MIN_CHUNKS vectors; `0` warms nothing;
 * closing the server waits for a warm in progress.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFile, loadConfig } from "./config.js";
import type { LogFields, Logger } from "./logger.js";
import { serveGroundwork } from "./serve.js";

const SECRET = "kb-warm-test-secret-0123456789";
let directory: string;
let knowledgeBaseId: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "gw-serve-warm-"));
  // A knowledge base with served documents, written by the library into the server's database file.
  const store = openStore({ file: databaseFile(directory), secret: SECRET });
  const groundwork = createGroundwork({ store });
  const principal = await groundwork.principal("acme");
  const kb = await groundwork.knowledge.createKnowledgeBase(principal, {
    name: "Handbook",
    slug: "handbook",
    embeddingProviderId: "builtin",
    embeddingModel: "hash-embedding-1536",
    embeddingDim: 1536,
  });
  await groundwork.knowledge.addDocuments(principal, kb.id, [
    { filename: "cranes.txt", content: new TextEncoder().encode("The harbour crane lifts forty tonnes.") },
  ]);
  await groundwork.knowledge.drain();
  await groundwork.close();
  store.close();
  knowledgeBaseId = kb.id;
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

function recordingLogger(): { logger: Logger; lines: Array<{ message: string; fields?: LogFields }> } {
  const lines: Array<{ message: string; fields?: LogFields }> = [];
  const keep = (message: string, fields?: LogFields) => {
    lines.push(fields === undefined ? { message } : { message, fields });
  };
  return { logger: { debug: keep, info: keep, warn: keep, error: keep }, lines };
}

async function serveWith(minChunks: string) {
  const config = loadConfig(
    { dataDir: directory, host: "127.0.0.1", port: "0" },
    { GROUNDWORK_SECRET: SECRET, GROUNDWORK_KB_WARM_MIN_CHUNKS: minChunks },
  );
  const { logger, lines } = recordingLogger();
  const server = await serveGroundwork(config, logger);
  // Closing waits for the warm: every line it writes is in by then.
  await server.close();
  return lines.filter((line) => line.message.includes("warmed"));
}

describe("serve warms large knowledge bases", () => {
  it("logs each knowledge base it warmed, from GROUNDWORK_KB_WARM_MIN_CHUNKS on", async () => {
    const lines = await serveWith("1");
    expect(lines).toEqual([
      {
        message: "knowledge base warmed",
        fields: expect.objectContaining({
          knowledgeBaseId,
          chunks: expect.any(Number),
          ms: expect.any(Number),
        }),
      },
    ]);
  });

  it("warms none under the size, and none with 0", async () => {
    expect(await serveWith("1000000")).toEqual([]);
    expect(await serveWith("0")).toEqual([]);
  });

  it("refuses a size that is not a non-negative integer", () => {
    expect(() =>
      loadConfig({ dataDir: directory }, { GROUNDWORK_SECRET: SECRET, GROUNDWORK_KB_WARM_MIN_CHUNKS: "-1" }),
    ).toThrow(/GROUNDWORK_KB_WARM_MIN_CHUNKS "-1"/);
  });
});
