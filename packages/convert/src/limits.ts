/** Caps that keep hostile or huge inputs from exhausting the process (docs/conversion.md, Limits). */
export interface ConversionLimits {
  /** Largest single input document, in bytes. */
  maxDocumentBytes: number;
  /** Files per archive. */
  maxArchiveEntries: number;
  /** Uncompressed bytes of one archive entry. */
  maxEntryBytes: number;
  /** Uncompressed bytes expanded from all archives and mail of one request source, nested ones included. */
  maxExpandedBytes: number;
  /** Uncompressed/compressed ratio above which an entry larger than 1 MiB is refused. */
  maxCompressionRatio: number;
  /** Containers inside containers (zip in zip in mail …). */
  maxNestingDepth: number;
  /** Rows of one sheet that hold cells (XLSX; CSV lines), whatever range the sheet declares. */
  maxSheetRows: number;
  /** Cells a whole workbook holds; also caps the slots of one sheet's rendered tables. */
  maxSheetCells: number;
  /** Heap of one parse worker, in MiB; a document that needs more fails alone. */
  workerHeapMb: number;
}

export const DEFAULT_LIMITS: ConversionLimits = {
  maxDocumentBytes: 100 * 1024 * 1024,
  maxArchiveEntries: 1000,
  maxEntryBytes: 100 * 1024 * 1024,
  maxExpandedBytes: 256 * 1024 * 1024,
  maxCompressionRatio: 100,
  maxNestingDepth: 4,
  maxSheetRows: 100_000,
  maxSheetCells: 2_000_000,
  workerHeapMb: 512,
};
