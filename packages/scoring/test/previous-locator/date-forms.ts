import { foldValue } from "./fold-text.js";

/**
 * Dates written in the text in common forms ("5 March 2024", "March 5th, 2024", "05.03.2024",
 * "3/5/24", "2024/03/05", "5. März 2024") read as ISO dates, so that a value the model normalised to
 * `YYYY-MM-DD` can be located where the document wrote it differently. Day-month order is ambiguous in
 * "03/05/2024": both readings are kept. The text searched is folded (lower case, NFD, one space per
 * separator run, so "-" reads as a space).
 */

const MONTHS: Record<string, number> = {};
const MONTH_NAMES: Array<[number, string[]]> = [
  [1, ["january", "jan", "januar", "jänner"]],
  [2, ["february", "feb", "februar"]],
  [3, ["march", "mar", "märz", "maerz", "mars"]],
  [4, ["april", "apr"]],
  [5, ["may", "mai"]],
  [6, ["june", "jun", "juni"]],
  [7, ["july", "jul", "juli"]],
  [8, ["august", "aug"]],
  [9, ["september", "sep", "sept"]],
  [10, ["october", "oct", "oktober", "okt"]],
  [11, ["november", "nov"]],
  [12, ["december", "dec", "dezember", "dez"]],
];
for (const [month, names] of MONTH_NAMES) for (const name of names) MONTHS[foldValue(name)] = month;
const MONTH = `(${Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join("|")})`;

const DAY = "(\\d{1,2})(?:st|nd|rd|th)?\\.?";
const YEAR = "(\\d{4})";
const DAY_MONTH_YEAR = new RegExp(`(?<![\\p{L}\\p{N}])${DAY} (?:of )?${MONTH}\\.?,? ${YEAR}(?!\\p{N})`, "gu");
const MONTH_DAY_YEAR = new RegExp(`(?<![\\p{L}\\p{N}])${MONTH}\\.? ${DAY},? ${YEAR}(?!\\p{N})`, "gu");
const NUMERIC = /(?<![\p{L}\p{N}./])(\d{1,4})([./ ])(\d{1,2})\2(\d{4}|\d{2})(?![\p{N}]|[./]\d)/gu;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface DateOccurrence {
  start: number;
  end: number;
  /** ISO `YYYY-MM-DD` readings. */
  readings: string[];
}

function iso(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1) return null;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function fullYear(year: string): number {
  const value = Number(year);
  if (year.length !== 2) return value;
  // Two-digit years: 00–69 read as 20xx, 70–99 as 19xx.
  return value < 70 ? 2000 + value : 1900 + value;
}

/** The ISO date a value denotes when it is a normalised date (`YYYY-MM-DD`), else null. */
export function isoDateOf(value: string): string | null {
  const match = ISO_DATE.exec(value.trim());
  if (match === null) return null;
  return iso(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** Every date written in the (folded) text, with its readings, in reading order. */
export function findDates(text: string): DateOccurrence[] {
  const found: DateOccurrence[] = [];
  const add = (start: number, end: number, readings: Array<string | null>) => {
    const valid = [...new Set(readings.filter((reading): reading is string => reading !== null))];
    if (valid.length > 0) found.push({ start, end, readings: valid });
  };
  // Only scan for written months when the text has a digit next to a letter run at all; the numeric
  // form is cheap to try.
  for (const match of text.matchAll(DAY_MONTH_YEAR)) {
    const end = match.index + match[0].length;
    add(match.index, end, [iso(Number(match[3]), MONTHS[match[2]!]!, Number(match[1]))]);
  }
  for (const match of text.matchAll(MONTH_DAY_YEAR)) {
    const end = match.index + match[0].length;
    add(match.index, end, [iso(Number(match[3]), MONTHS[match[1]!]!, Number(match[2]))]);
  }
  for (const match of text.matchAll(NUMERIC)) {
    const [, first, , second, third] = match;
    const end = match.index + match[0].length;
    if (first!.length === 4) add(match.index, end, [iso(Number(first), Number(second), Number(third))]);
    else if (first!.length <= 2) {
      const year = fullYear(third!);
      add(match.index, end, [
        iso(year, Number(second), Number(first)),
        iso(year, Number(first), Number(second)),
      ]);
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
