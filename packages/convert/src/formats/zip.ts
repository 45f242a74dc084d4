/**
 * ZIP archives: every file entry becomes a child document. Archive bombs are
 * refused before inflating (declared sizes, entry count, ratio) and while
 * inflating (actual bytes are counted, so lying headers do not help).
 */

import { readZipDirectory } from "@groundwork/core";
import { DocumentError } from "../document-error.js";
import type { ChildDocument, ParsedDocument, ParseOptions } from "./parse-context.js";

/** jszip's internal streaming helper (public in its docs, missing from its typings). */
interface InternalStream {
  on(event: "data", listener: (chunk: Uint8Array) => void): InternalStream;
  on(event: "error", listener: (error: Error) => void): InternalStream;
  on(event: "end", listener: () => void): InternalStream;
  pause(): InternalStream;
  resume(): InternalStream;
}

const SKIPPED = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$|desktop\.ini$)/;
const MIB = 1024 * 1024;

function inflateCapped(file: import("jszip").JSZipObject, cap: number, name: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const stream = (file as unknown as { internalStream(type: "uint8array"): InternalStream }).internalStream(
      "uint8array",
    );
    stream
      .on("data", (chunk: Uint8Array) => {
        total += chunk.length;
        if (total > cap) {
          stream.pause();
          reject(
            new DocumentError(
              "limit_exceeded",
              `Entry "${name}" inflates past ${cap} bytes (archive bomb guard)`,
            ),
          );
          return;
        }
        chunks.push(chunk);
      })
      .on("error", (error: Error) =>
        reject(new DocumentError("corrupt_document", `Entry "${name}" is corrupt: ${error.message}`)),
      )
      .on("end", () => {
        const out = new Uint8Array(total);
        let offset = 0;
        for (const chunk of chunks) {
          out.set(chunk, offset);
          offset += chunk.length;
        }
        resolve(out);
      })
      .resume();
  });
}

export async function parseZip(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const { limits } = options;
  const directory = readZipDirectory(bytes);
  if (directory === null)
    throw new DocumentError("corrupt_document", "The ZIP archive has no readable central directory");
  const files = directory.filter((entry) => !entry.directory && !SKIPPED.test(entry.name));
  if (files.length > limits.maxArchiveEntries) {
    throw new DocumentError(
      "limit_exceeded",
      `The archive holds ${files.length} files; at most ${limits.maxArchiveEntries} are expanded`,
    );
  }
  let declared = 0;
  for (const entry of files) {
    declared += entry.uncompressedSize;
    if (entry.uncompressedSize > limits.maxEntryBytes) {
      throw new DocumentError(
        "limit_exceeded",
        `Entry "${entry.name}" declares ${entry.uncompressedSize} bytes; the cap is ${limits.maxEntryBytes}`,
      );
    }
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (entry.uncompressedSize > MIB && ratio > limits.maxCompressionRatio) {
      throw new DocumentError(
        "limit_exceeded",
        `Entry "${entry.name}" expands ${Math.round(ratio)}:1; ratios above ${limits.maxCompressionRatio}:1 are refused (archive bomb guard)`,
      );
    }
  }
  if (declared > options.expansionBudget) {
    throw new DocumentError(
      "limit_exceeded",
      `The archive expands to ${declared} bytes; only ${options.expansionBudget} bytes of expanded content are allowed`,
    );
  }
  const { default: JSZip } = await import("jszip");
  let zip: import("jszip");
  try {
    zip = await JSZip.loadAsync(bytes, { checkCRC32: false });
  } catch (error) {
    throw new DocumentError(
      "corrupt_document",
      `The ZIP archive could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const children: ChildDocument[] = [];
  let expanded = 0;
  for (const entry of Object.values(zip.files)) {
    if (entry.dir || SKIPPED.test(entry.name)) continue;
    const cap = Math.min(limits.maxEntryBytes, options.expansionBudget - expanded);
    const content = await inflateCapped(entry, cap, entry.name);
    expanded += content.length;
    if (entry.name.includes("..")) continue; // never a real document path; ignore traversal names
    children.push({ filename: entry.name, bytes: content });
  }
  if (children.length === 0) throw new DocumentError("empty_archive", "The archive contains no files");
  return { model: null, children, pagesWithoutText: [], expandedBytes: expanded };
}
