import type { Block } from "../document-model.js";

/** Decodes text bytes: BOMs first, then strict UTF-8, falling back to Windows-1252 for legacy files. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder().decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/** Plain text: paragraphs are separated by blank lines; line breaks inside one are kept. */
export function textToBlocks(text: string): Block[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n+/)
    .map((chunk) => chunk.replace(/[ \t]+$/gm, "").replace(/^\n+|\n+$/g, ""))
    .filter((chunk) => chunk.trim() !== "")
    .map((chunk) => ({ type: "paragraph" as const, text: chunk }));
}
