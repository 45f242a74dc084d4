/**
 * Tells DOCX/XLSX/PPTX from a plain archive by the ZIP's central directory alone
 * (read by `readZipDirectory` of @groundwork/core, which nothing inflates).
 */
import { readZipDirectory } from "@groundwork/core";

export function ooxmlKindOf(bytes: Uint8Array): "docx" | "xlsx" | "pptx" | null {
  const entries = readZipDirectory(bytes);
  if (entries === null) return null;
  const names = new Set(entries.map((entry) => entry.name));
  if (!names.has("[Content_Types].xml")) return null;
  if (names.has("word/document.xml")) return "docx";
  if (names.has("xl/workbook.xml")) return "xlsx";
  if (names.has("ppt/presentation.xml")) return "pptx";
  return null;
}
