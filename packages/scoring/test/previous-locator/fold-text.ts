import { normalizeValue, SEPARATOR_CODES } from "../../src/grounding/normalize-text.js";

/**
 * The folded form span location searches: lower case, canonically decomposed (NFD, so text stored
 * composed or decomposed reads the same), every separator run one space, soft hyphens and line-end
 * hyphenation ("inter-\nnational") removed. `origin` maps each UTF-16 unit of `folded` back to the
 * code-point offset of the character of the ORIGINAL text it came from, so a hit in the folded text is
 * an interval of the original text, counted in code points.
 */
export interface FoldedText {
  folded: string;
  /** `origin[i]`: code-point offset in the original text of the character folded unit `i` came from. */
  origin: Int32Array;
  /** Length of the original text in code points. */
  codePoints: number;
}

const SOFT_HYPHEN = 0xad;
const HYPHENS = new Set([0x2d, 0x2010, 0x2011]);
const LETTER = /\p{L}/u;
const MARKS_ONLY = /^\p{M}+$/u;

// Folding one non-ASCII character goes through ICU; text repeats the same few such characters, so
// each is folded once.
const foldCache = new Map<number, string>();

function foldCodePoint(codePoint: number): string {
  let folded = foldCache.get(codePoint);
  if (folded === undefined) {
    folded = String.fromCodePoint(codePoint).toLowerCase().normalize("NFD");
    if (foldCache.size < 4096) foldCache.set(codePoint, folded);
  }
  return folded;
}

// Decodes the folded units in one native call; a BOM stays a character.
const UTF16 = new TextDecoder("utf-16le", { ignoreBOM: true });

/** Folds `text`; offsets in `origin` count code points from `baseOffset`. */
export function foldText(text: string, baseOffset = 0): FoldedText {
  const length = text.length;
  // Typed buffers sized for the common case (one unit per character), grown for decompositions. No
  // closure writes to them: the loop below runs once per character and stays on local variables.
  let units: Uint16Array = new Uint16Array(length + 16);
  let origins: Int32Array = new Int32Array(length + 16);
  let size = 0;
  // A lone surrogate would not survive decoding as UTF-16: such text is decoded unit by unit.
  let loneSurrogate = false;
  let codePoint = baseOffset;
  let lastWasSeparator = true; // no leading space
  let lastWasLetter = false;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    const offset = codePoint++;
    if (code < 0x80 && SEPARATOR_CODES[code] !== 1) {
      lastWasSeparator = false;
      const lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
      lastWasLetter = (lower >= 0x61 && lower <= 0x7a) || (lower >= 0x30 && lower <= 0x39);
      if (size === units.length) [units, origins] = grow(units, origins, size + 1);
      units[size] = lower;
      origins[size++] = offset;
      continue;
    }
    if (SEPARATOR_CODES[code] === 1) {
      if (HYPHENS.has(code) && lastWasLetter && isLineEndHyphen(text, i)) {
        // "inter-\n  national": the hyphen, the line break and the indent all fold away.
        let next = i + 1;
        while (next < length && SEPARATOR_CODES[text.charCodeAt(next)] === 1) next++;
        codePoint += next - i - 1;
        i = next - 1;
        continue;
      }
      lastWasLetter = false;
      if (lastWasSeparator) continue;
      lastWasSeparator = true;
      if (size === units.length) [units, origins] = grow(units, origins, size + 1);
      units[size] = 0x20;
      origins[size++] = offset;
      continue;
    }
    if (code === SOFT_HYPHEN) continue;
    let full = code;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        full = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (full >= 0xd800 && full <= 0xdfff) loneSurrogate = true;
    lastWasSeparator = false;
    const folded = foldCodePoint(full);
    lastWasLetter = LETTER.test(folded) || (lastWasLetter && MARKS_ONLY.test(folded));
    if (size + folded.length > units.length) [units, origins] = grow(units, origins, size + folded.length);
    for (let unit = 0; unit < folded.length; unit++) {
      units[size] = folded.charCodeAt(unit);
      origins[size++] = offset;
    }
  }
  // A trailing space is never part of a hit; dropping it keeps folded values trimmed.
  if (size > 0 && units[size - 1] === 0x20) size--;
  let folded = "";
  if (!loneSurrogate) folded = UTF16.decode(units.subarray(0, size));
  else {
    for (let start = 0; start < size; start += 8192) {
      folded += String.fromCharCode.apply(
        null,
        units.subarray(start, Math.min(size, start + 8192)) as unknown as number[],
      );
    }
  }
  return { folded, origin: origins.slice(0, size), codePoints: codePoint - baseOffset };
}

function grow(units: Uint16Array, origins: Int32Array, needed: number): [Uint16Array, Int32Array] {
  const capacity = Math.max(needed, units.length * 2);
  const grownUnits = new Uint16Array(capacity);
  grownUnits.set(units);
  const grownOrigins = new Int32Array(capacity);
  grownOrigins.set(origins);
  return [grownUnits, grownOrigins];
}

/** A hyphen at `at` followed by optional blanks, one line break and a letter: a word broken at a line end. */
function isLineEndHyphen(text: string, at: number): boolean {
  let i = at + 1;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  if (text[i] === "\r") i++;
  if (text[i] !== "\n") return false;
  i++;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  const next = text.codePointAt(i);
  return next !== undefined && LETTER.test(String.fromCodePoint(next));
}

/** The folded form of a value, as searched: same folding as the text. */
export function foldValue(value: string): string {
  // Plain ASCII without a line break folds by lower-casing and collapsing separators (no decomposition,
  // no line-end hyphenation): the common case, without the offset table.
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0x80 || code === 0x0a || code === 0x0d) return foldText(value).folded;
  }
  return normalizeValue(value.toLowerCase());
}
