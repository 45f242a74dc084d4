/**
 * XLSX and CSV through SheetJS. Each sheet becomes a sheet boundary plus one
 * table per region of cells (regions are separated by empty rows or columns); a CSV is one table. Sheets are measured before their cells are materialised so a huge one
 * fails the document instead of the process (`maxSheetRows`, `maxSheetCells`).
 */

import { DocumentError } from "../document-error.js";
import type { Block } from "../document-model.js";
import { compactMetadata, documentOf, type ParsedDocument, type ParseOptions } from "./parse-context.js";
import { decodeText } from "./plain-text.js";
import { tableRegions } from "./table-regions.js";

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
    const ref = (sheet["!fullref"] as string | undefined) ?? sheet["!ref"];
    if (ref !== undefined) {
      const range = XLSX.utils.decode_range(ref);
      const rows = range.e.r - range.s.r + 1;
      const cols = range.e.c - range.s.c + 1;
      if (rows > options.limits.maxSheetRows) {
        throw new DocumentError(
          "limit_exceeded",
          `Sheet "${name}" has ${rows} rows; at most ${options.limits.maxSheetRows} rows per sheet are converted`,
        );
      }
      cells += rows * cols;
      if (cells > options.limits.maxSheetCells) {
        throw new DocumentError(
          "limit_exceeded",
          `The workbook spans more than ${options.limits.maxSheetCells} cells (sheet "${name}" is ${rows}×${cols})`,
        );
      }
    }
    const grid = XLSX.utils
      .sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: "", blankrows: true })
      .map((row) => row.map((cell) => (cell === null || cell === undefined ? "" : String(cell))));
    if (isCsv) {
      // A CSV is one table by construction; an empty line or column in it is data, not a gap.
      const rows = trimRows(grid);
      if (rows.length > 0) blocks.push({ type: "table", rows, header: true });
      return;
    }
    blocks.push({ type: "section", kind: "sheet", index: index + 1, title: name });
    for (const rows of tableRegions(grid)) blocks.push({ type: "table", rows, header: true });
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
      sheetRows: options.limits.maxSheetRows + 1,
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
