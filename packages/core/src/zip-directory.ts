/**
 * Reads a ZIP's central directory (names, declared sizes, attributes) without
 * inflating anything: enough to tell DOCX/XLSX/PPTX from a plain archive, to spot
 * symlinks and to refuse archive bombs before a byte is decompressed. Declared
 * sizes can lie: whoever inflates must still count the real bytes.
 */

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  directory: boolean;
  /** The host system of "version made by" (0 MS-DOS, 3 Unix, 19 OS X, …). */
  madeBy: number;
  /** The external file attributes (on Unix hosts the mode in the high 16 bits). */
  externalAttributes: number;
}

/** Whether the entry is a symbolic link (a Unix-made entry whose mode is S_IFLNK). */
export function isZipSymlink(entry: ZipEntryInfo): boolean {
  const unixLike = entry.madeBy === 3 || entry.madeBy === 19;
  return unixLike && ((entry.externalAttributes >>> 16) & 0o170000) === 0o120000;
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
    const madeBy = view.getUint8(offset + 5);
    const compressedSize = view.getUint32(offset + 20, true);
    const uncompressedSize = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const externalAttributes = view.getUint32(offset + 38, true);
    const name = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    entries.push({
      name,
      compressedSize,
      uncompressedSize,
      directory: name.endsWith("/"),
      madeBy,
      externalAttributes,
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
