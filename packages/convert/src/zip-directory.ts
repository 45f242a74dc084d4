/**
 * Reads a ZIP's central directory (names and declared sizes) without inflating
 * anything: enough to tell DOCX/XLSX/PPTX from a plain archive and to refuse
 * archive bombs before a byte is decompressed.
 */

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  directory: boolean;
}

export function readZipDirectory(bytes: Uint8Array): ZipEntryInfo[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const minEocd = 22;
  if (bytes.length < minEocd) return null;
  let eocd = -1;
  for (let i = bytes.length - minEocd; i >= Math.max(0, bytes.length - minEocd - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  const entries: ZipEntryInfo[] = [];
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50)
      return entries.length > 0 ? entries : null;
    const compressedSize = view.getUint32(offset + 20, true);
    const uncompressedSize = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const name = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    entries.push({ name, compressedSize, uncompressedSize, directory: name.endsWith("/") });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

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
