/**
 * Numbers written differently ("1,234.50", "1.234,5", "1'234.5", "1234.5") read as one canonical
 * decimal string ("1234.5"), so span location can find a number whatever its grouping and trailing
 * zeros. A token whose separators allow two readings ("1,234": 1234 or 1.234) yields both.
 */

const WHOLE_NUMBER = /^[+-]?(?:\d{1,3}(?:[,.'’]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)$/u;

export interface NumberOccurrence {
  /** Offsets into the searched (folded) text, UTF-16 units, end exclusive. */
  start: number;
  end: number;
  readings: string[];
}

/** Canonical decimal: no sign, no leading zeros in the integer part, no trailing zeros in the fraction. */
function canonical(integer: string, fraction: string): string {
  const whole = integer.replace(/^0+(?=\d)/, "");
  const decimals = fraction.replace(/0+$/, "");
  return decimals === "" ? whole : `${whole}.${decimals}`;
}

/** Every canonical reading of a number token (no sign), or none when it is not one. */
export function numberReadings(token: string): string[] {
  const body = token.replace(/^[+-]/, "");
  if (!WHOLE_NUMBER.test(body)) return [];
  const readings = new Set<string>();
  for (const decimalMark of [".", ","]) {
    const reading = readWith(body, decimalMark);
    if (reading !== null) readings.add(reading);
  }
  return [...readings];
}

function readWith(body: string, decimalMark: string): string | null {
  const lastMark = body.lastIndexOf(decimalMark);
  let integer = body;
  let fraction = "";
  if (lastMark !== -1 && body.indexOf(decimalMark) === lastMark) {
    // One decimal mark, after every grouping separator.
    integer = body.slice(0, lastMark);
    fraction = body.slice(lastMark + 1);
    if (!/^\d+$/.test(fraction)) return null;
  }
  const groups = integer.split(/[,.'’]/);
  if (
    groups.some((group, index) => (index === 0 ? !/^\d{1,3}$|^\d+$/.test(group) : !/^\d{3}$/.test(group)))
  ) {
    return null;
  }
  if (groups.length > 1 && groups[0]!.length > 3) return null;
  // A grouping separator that is the decimal mark's own character cannot group too.
  if (groups.length > 1 && integer.includes(decimalMark)) return null;
  return canonical(groups.join(""), fraction);
}

/** The canonical form of a JSON number, or null for one that is not written as a plain decimal. */
export function canonicalNumber(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = String(Math.abs(value));
  if (!/^\d+(?:\.\d+)?$/.test(text)) return null;
  const [integer, fraction = ""] = text.split(".");
  return canonical(integer!, fraction);
}

/** Every number token in `text` with its readings, in reading order. */
export function findNumbers(text: string): NumberOccurrence[] {
  // A hand-written scan: the token expression with its look-arounds costs ten times as much on long text.
  const found: NumberOccurrence[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) {
      i++;
      continue;
    }
    const start = i;
    // Digits, and marks that sit between two digits.
    while (
      i < length &&
      (isDigit(text.charCodeAt(i)) || (isMark(text.charCodeAt(i)) && isDigit(text.charCodeAt(i + 1))))
    )
      i++;
    const end = i;
    if (start > 0 && isWordBefore(text, start)) continue;
    if (end < length && isWordAt(text, end)) continue;
    const readings = numberReadings(text.slice(start, end));
    if (readings.length > 0) found.push({ start, end, readings });
  }
  return found;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isMark(code: number): boolean {
  return code === 0x2c || code === 0x2e || code === 0x27 || code === 0x2019;
}

const WORD = /[\p{L}\p{N}\p{M}]/u;

function isWordAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return isDigit(code) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  return WORD.test(String.fromCodePoint(text.codePointAt(at)!));
}

function isWordBefore(text: string, at: number): boolean {
  const code = text.charCodeAt(at - 1);
  if (code >= 0xdc00 && code <= 0xdfff && at >= 2) return WORD.test(text.slice(at - 2, at));
  return isWordAt(text, at - 1);
}
