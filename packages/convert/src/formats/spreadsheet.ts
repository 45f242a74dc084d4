/**
 * XLSX and CSV through SheetJS. Each sheet becomes a sheet boundary plus one
 * table per region of cells (regions are separated by empty rows or columns); a CSV is one table.
 * The caps (`maxSheetRows`, `maxSheetCells`) count the cells a sheet really holds, not its declared
 * range, and are checked before any table is materialised.
 */

import { DocumentError } from "../document-error.js";
import type { Block } from "../document-model.js";
import { compactMetadata, documentOf, type ParsedDocument, type ParseOptions } from "./parse-context.js";
import { decodeText } from "./plain-text.js";
import { regionRows, type SheetCell, tableRegions } from "./table-regions.js";

type SheetJs = typeof import("xlsx");

function trimRows(rows: string[][]): string[][] {
  let end = rows.length;
  while (end > 0 && (rows[end - 1] as string[]).every((cell) => cell === "")) end--;
  const kept = rows.slice(0, end);
  let width = 0;
  for (const row of kept) {
    for (let i = row.length - 1; i >= 0; i--) {
      if (row[i] !== "") {
        width = Math.max(width, i + 1);
        break;
      }
    }
  }
  return kept.map((row) => Array.from({ length: width }, (_, i) => String(row[i] ?? "")));
}

/** The cells SheetJS materialised (a dense sheet is an array of rows), with their formatted text. */
function realCells(XLSX: SheetJs, sheet: import("xlsx").WorkSheet): SheetCell[] {
  const cells: SheetCell[] = [];
  const rows = sheet as unknown as Array<Array<import("xlsx").CellObject | undefined> | undefined>;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    if (row === undefined) continue;
    for (let c = 0; c < row.length; c++) {
      const cell = row[c];
      if (cell === undefined) continue;
      cells.push({ r, c, text: String(XLSX.utils.format_cell(cell) ?? "") });
    }
  }
  return cells;
}

/** Refuses a sheet past the caps; both count real cells, never the declared range (C7). */
function measure(name: string, cells: readonly SheetCell[], total: number, options: ParseOptions): number {
  const rows = new Set(cells.map((cell) => cell.r)).size;
  if (rows > options.limits.maxSheetRows) {
    throw new DocumentError(
      "limit_exceeded",
      `Sheet "${name}" has ${rows} rows; at most ${options.limits.maxSheetRows} rows per sheet are converted`,
    );
  }
  if (total + cells.length > options.limits.maxSheetCells) {
    throw new DocumentError(
      "limit_exceeded",
      `The workbook holds more than ${options.limits.maxSheetCells} cells (sheet "${name}" holds ${cells.length})`,
    );
  }
  return total + cells.length;
}

function sheetBlocks(
  XLSX: SheetJs,
  workbook: import("xlsx").WorkBook,
  options: ParseOptions,
  isCsv: boolean,
): Block[] {
  const blocks: Block[] = [];
  let cells = 0;
  workbook.SheetNames.forEach((name, index) => {
    const sheet = workbook.Sheets[name];
    if (sheet === undefined) return;
    const found = realCells(XLSX, sheet);
    cells = measure(name, found, cells, options);
    if (isCsv) {
      // A CSV is one table by construction; an empty line or column in it is data, not a gap.
      const rows = trimRows(
        XLSX.utils
          .sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: "", blankrows: true })
          .map((row) => row.map((cell) => (cell === null || cell === undefined ? "" : String(cell)))),
      );
      if (rows.length > 0) blocks.push({ type: "table", rows, header: true });
      return;
    }
    blocks.push({ type: "section", kind: "sheet", index: index + 1, title: name });
    const regions = tableRegions(found);
    // A region has no empty row or column, yet its rectangle can still hold far more slots than
    // cells (a staircase); the rendered rows are bounded like the cells.
    let area = 0;
    for (const region of regions) area += region.height * region.width;
    if (area > options.limits.maxSheetCells) {
      throw new DocumentError(
        "limit_exceeded",
        `Sheet "${name}" renders as tables of more than ${options.limits.maxSheetCells} cells`,
      );
    }
    for (const region of regions) blocks.push({ type: "table", rows: regionRows(region), header: true });
  });
  return blocks;
}

export async function parseXlsx(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const XLSX = await import("xlsx");
  let workbook: import("xlsx").WorkBook;
  try {
    workbook = XLSX.read(bytes, {
      type: "array",
      dense: true,
      // No sheetRows: it cuts by row number, so a sheet with a far-away cell would lose it silently.
      // Memory while parsing is bounded by the parse worker's heap; the caps count real cells (C7).
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
    });
  } catch (error) {
    throw new DocumentError(
      "corrupt_document",
      `The spreadsheet could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const props = workbook.Props ?? {};
  const metadata = compactMetadata({
    title: props.Title,
    subject: props.Subject,
    author: props.Author,
    company: props.Company,
    created: props.CreatedDate instanceof Date ? props.CreatedDate.toISOString() : undefined,
    modified: props.ModifiedDate instanceof Date ? props.ModifiedDate.toISOString() : undefined,
    sheets: workbook.SheetNames,
  });
  return documentOf("xlsx", sheetBlocks(XLSX, workbook, options, false), metadata, {
    pageCount: workbook.SheetNames.length,
  });
}

export async function parseCsv(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const XLSX = await import("xlsx");
  const text = decodeText(bytes);
  const lineCount = text.split("\n", options.limits.maxSheetRows + 2).length;
  if (lineCount > options.limits.maxSheetRows + 1) {
    throw new DocumentError("limit_exceeded", `The CSV has more than ${options.limits.maxSheetRows} rows`);
  }
  let workbook: import("xlsx").WorkBook;
  try {
    // raw: cells stay the strings they were; SheetJS guesses the delimiter (, ; tab |).
    workbook = XLSX.read(text, { type: "string", raw: true, dense: true });
  } catch (error) {
    throw new DocumentError(
      "corrupt_document",
      `The CSV could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return documentOf("csv", sheetBlocks(XLSX, workbook, options, true), {});
}
