/**
 * The parts of an OOXML package (DOCX, PPTX) by name. The ZIP's central directory is read once
 * and each part is inflated on demand by node's zlib (docs/decisions.md, CP10): jszip's
 * JavaScript inflater was half of a 200-slide PPTX's read time. A package this reader does not
 * handle (ZIP64, a method other than stored/deflate, encryption) goes through jszip as before.
 */
import { inflateRawSync } from "node:zlib";
import type JSZip from "jszip";
import { DocumentError } from "../document-error.js";

export interface OoxmlPackage {
  /** The part as UTF-8 text, or null when the package has no such part. */
  text(path: string): Promise<string | null>;
  /** The part's bytes in base64 (embedded pictures), or null. */
  base64(path: string): Promise<string | null>;
}

interface Entry {
  method: number;
  compressedSize: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

/** Name → entry from the central directory, or null when the package needs the general reader. */
function centralDirectory(bytes: Uint8Array): Map<string, Entry> | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--)
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  if (eocd < 0) return null;
  const count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || offset === ZIP64_MARK) return null;
  const decoder = new TextDecoder();
  const entries = new Map<string, Entry>();
  for (let n = 0; n < count; n++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== CENTRAL) return null;
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    const compressedSize = view.getUint32(offset + 20, true);
    const uncompressedSize = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const localOffset = view.getUint32(offset + 42, true);
    if ((flags & 1) !== 0 || (method !== 0 && method !== 8)) return null;
    if (compressedSize === ZIP64_MARK || uncompressedSize === ZIP64_MARK || localOffset === ZIP64_MARK)
      return null;
    const name = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    entries.set(name, { method, compressedSize, localOffset });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function nativePackage(bytes: Uint8Array, entries: Map<string, Entry>, kind: string, maxPartBytes: number) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  const read = (path: string): Uint8Array | null => {
    const entry = entries.get(path);
    if (entry === undefined) return null;
    const local = entry.localOffset;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL)
      throw new DocumentError("corrupt_document", `The ${kind}'s part ${path} could not be read`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) return data;
    try {
      // The cap keeps a crafted part (a zip bomb) from filling the heap.
      return inflateRawSync(data, { maxOutputLength: maxPartBytes });
    } catch (error) {
      throw new DocumentError(
        "corrupt_document",
        `The ${kind}'s part ${path} could not be inflated: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  return {
    text: async (path: string) => {
      const data = read(path);
      return data === null ? null : decoder.decode(data);
    },
    base64: async (path: string) => {
      const data = read(path);
      return data === null
        ? null
        : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
    },
  } satisfies OoxmlPackage;
}

function jszipPackage(zip: JSZip): OoxmlPackage {
  return {
    text: async (path) => zip.file(path)?.async("string") ?? null,
    base64: async (path) => zip.file(path)?.async("base64") ?? null,
  };
}

/** Opens a DOCX or PPTX; an unreadable archive is a `corrupt_document`. */
export async function openOoxmlPackage(
  bytes: Uint8Array,
  kind: "DOCX" | "PPTX",
  maxPartBytes: number,
): Promise<OoxmlPackage> {
  const entries = centralDirectory(bytes);
  if (entries !== null) return nativePackage(bytes, entries, kind, maxPartBytes);
  const { default: JSZipClass } = await import("jszip");
  try {
    return jszipPackage(await JSZipClass.loadAsync(bytes));
  } catch (error) {
    throw new DocumentError(
      "corrupt_document",
      `The ${kind} could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
