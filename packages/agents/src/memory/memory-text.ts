/**
 * The text rules of memory files (PLATFORM.md §3.1–3.3): content checks, the
 * content hash, line counting and ranges, and the str_replace and insert edits.
 * Lines end at `\n`; a final line without one still counts.
 */
import { createHash } from "node:crypto";
import { invalidRequest } from "@groundwork/core";

/** Lowercase hex SHA-256 of the UTF-8 bytes: the `ifMatch` value of a write. */
export function memorySha256(content: string): string {
  return createHash("sha256").update(content, "utf8").digest("hex");
}

export function utf8Size(content: string): number {
  return Buffer.byteLength(content, "utf8");
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * 400 `invalid_content` for text that is not valid UTF-8 (a lone surrogate cannot be
 * encoded) or holds a NUL, which no text file should.
 */
export function checkMemoryText(text: string, param: string): string {
  if (LONE_SURROGATE.test(text)) {
    throw invalidRequest(`${param} is not valid UTF-8 text`, { param, code: "invalid_content" });
  }
  if (text.includes("\u0000")) {
    throw invalidRequest(`${param} contains a NUL character`, { param, code: "invalid_content" });
  }
  return text;
}

export function lineCount(content: string): number {
  if (content === "") return 0;
  let count = 1;
  for (let i = content.indexOf("\n"); i !== -1; i = content.indexOf("\n", i + 1)) count++;
  return content.endsWith("\n") ? count - 1 : count;
}

/** Offset where line `n + 1` starts (n = 0 … lineCount); the content's end for the last line. */
function offsetAfterLine(content: string, n: number): number {
  let offset = 0;
  for (let line = 0; line < n; line++) {
    const newline = content.indexOf("\n", offset);
    if (newline === -1) return content.length;
    offset = newline + 1;
  }
  return offset;
}

export interface LineRange {
  content: string;
  startLine: number;
  endLine: number;
}

/**
 * Lines `startLine` … `endLine` (1-based, inclusive; `endLine` −1 or absent = the last
 * line) with their own line ends. An empty file reads as `startLine` 1, `endLine` 0.
 */
export function lineRange(content: string, startLine = 1, endLine = -1): LineRange {
  const total = lineCount(content);
  if (startLine < 1 || (startLine > total && !(startLine === 1 && total === 0))) {
    throw invalidRequest(
      `startLine must be between 1 and ${Math.max(total, 1)} (the file has ${total} lines)`,
      {
        param: "startLine",
      },
    );
  }
  const end = endLine === -1 ? total : endLine;
  if (end < startLine - 1 || end > total || (endLine !== -1 && endLine < startLine)) {
    throw invalidRequest(`endLine must be -1 or between startLine and ${total}`, { param: "endLine" });
  }
  if (startLine === 1 && end === total) return { content, startLine, endLine: end };
  return {
    content: content.slice(offsetAfterLine(content, startLine - 1), offsetAfterLine(content, end)),
    startLine,
    endLine: end,
  };
}

/** Replaces the one occurrence of `oldStr`; none → 400 `no_match`, several → 400 `multiple_matches`. */
export function replaceOnce(content: string, oldStr: string, newStr: string): string {
  const first = content.indexOf(oldStr);
  if (first === -1) {
    throw invalidRequest("oldStr does not occur in the file", { param: "oldStr", code: "no_match" });
  }
  if (content.indexOf(oldStr, first + 1) !== -1) {
    throw invalidRequest("oldStr occurs more than once in the file; include more context to make it unique", {
      param: "oldStr",
      code: "multiple_matches",
    });
  }
  return content.slice(0, first) + newStr + content.slice(first + oldStr.length);
}

/**
 * Inserts `text` as whole lines after line `insertLine` (0 = before the first). A final
 * line without a line end gets one first, so the inserted text starts a line of its own.
 */
export function insertLines(content: string, insertLine: number, text: string): string {
  const total = lineCount(content);
  if (!Number.isInteger(insertLine) || insertLine < 0 || insertLine > total) {
    throw invalidRequest(`insertLine must be between 0 and ${total} (the file has ${total} lines)`, {
      param: "insertLine",
    });
  }
  const lines = text.endsWith("\n") || text === "" ? text : `${text}\n`;
  const offset = offsetAfterLine(content, insertLine);
  const before = content.slice(0, offset);
  const joined = before === "" || before.endsWith("\n") ? before : `${before}\n`;
  return joined + lines + content.slice(offset);
}
