/**
 * Entry of a parse worker thread. Untrusted documents are parsed here, never on
 * the server's thread: a crafted file can stall, exhaust or pollute only this
 * worker, which the pool then throws away (DESIGN.md, xlsx advisories).
 */
import { parentPort } from "node:worker_threads";
import { isDocumentError } from "./document-error.js";
import type { ParseOptions } from "./formats/parse-context.js";
import { renderPdfPages } from "./formats/pdf.js";
import type { InputFormat } from "./formats.js";
import { parseDocument } from "./parse-document.js";

export type WorkerRequest =
  | { id: number; op: "parse"; format: InputFormat; bytes: Uint8Array; options: ParseOptions }
  | { id: number; op: "render"; bytes: Uint8Array; pages: number[]; scale: number };

export type WorkerResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; code: string; message: string };

async function handle(request: WorkerRequest): Promise<unknown> {
  if (request.op === "parse") return parseDocument(request.format, request.bytes, request.options);
  return renderPdfPages(request.bytes, request.pages, request.scale);
}

function transferables(value: unknown): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const visit = (node: unknown, depth: number) => {
    if (depth > 4 || node === null || typeof node !== "object") return;
    if (node instanceof Uint8Array) {
      if (
        node.byteOffset === 0 &&
        node.byteLength === node.buffer.byteLength &&
        node.buffer instanceof ArrayBuffer
      )
        out.add(node.buffer);
      return;
    }
    if (Array.isArray(node)) for (const item of node) visit(item, depth + 1);
    else for (const item of Object.values(node)) visit(item, depth + 1);
  };
  visit(value, 0);
  return [...out];
}

// Tells the pool this worker has loaded and can take a document.
parentPort?.postMessage({ id: 0, ok: true, value: "ready" } satisfies WorkerResponse);

parentPort?.on("message", (request: WorkerRequest) => {
  handle(request).then(
    (value) => {
      const response: WorkerResponse = { id: request.id, ok: true, value };
      parentPort?.postMessage(response, transferables(value));
    },
    (error: unknown) => {
      const response: WorkerResponse = isDocumentError(error)
        ? { id: request.id, ok: false, code: error.code, message: error.message }
        : {
            id: request.id,
            ok: false,
            code: "corrupt_document",
            message: `The document could not be read: ${error instanceof Error ? error.message : String(error)}`,
          };
      parentPort?.postMessage(response);
    },
  );
});
