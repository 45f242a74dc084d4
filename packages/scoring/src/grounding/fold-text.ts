import { normalizeValue, SEPARATOR_CODES } from "./normalize-text.js";

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

// Per ASCII code: its folded unit (lower case), or -1 for a separator. The common case of the loop
// below is one table read.
const ASCII_FOLD = new Int16Array(0x80);
// Per ASCII code: 1 for a letter or digit (what a line-end hyphen must follow).
const ASCII_ALNUM = new Uint8Array(0x80);
for (let code = 0; code < 0x80; code++) {
  ASCII_FOLD[code] = SEPARATOR_CODES[code] === 1 ? -1 : code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
  const lower = code | 0x20;
  ASCII_ALNUM[code] = (lower >= 0x61 && lower <= 0x7a) || (code >= 0x30 && code <= 0x39) ? 1 : 0;
}

/**
 * Span location folds a long text on every call: its buffers (6 bytes per character) are kept and
 * reused rather than allocated anew, which for 400,000 characters would be megabytes of garbage per
 * call. Only `foldTextReusing` uses them; what it returns is valid until its next call.
 */
let sharedUnits: Uint16Array = new Uint16Array(0);
let sharedOrigins: Int32Array = new Int32Array(0);

/** A folded text with its UTF-16 units also as an array, which long scans read faster than the string. */
export interface FoldedUnits extends FoldedText {
  /** `units[i] === folded.charCodeAt(i)`. */
  units: Uint16Array;
}

/** Folds `text`; offsets in `origin` count code points from `baseOffset`. */
export function foldText(text: string, baseOffset = 0): FoldedText {
  const result = fold(text, baseOffset, new Uint16Array(text.length + 16), new Int32Array(text.length + 16));
  return { folded: result.folded, origin: result.origin.slice(), codePoints: result.codePoints };
}

/**
 * `foldText` into buffers kept between calls: `origin` and `units` are views that the next call
 * overwrites, so the caller must be done with them before folding again (span location folds once
 * per call).
 */
export function foldTextReusing(text: string): FoldedUnits {
  if (sharedUnits.length < text.length + 16) {
    sharedUnits = new Uint16Array(text.length + 16);
    sharedOrigins = new Int32Array(text.length + 16);
  }
  return fold(text, 0, sharedUnits, sharedOrigins);
}

function fold(
  text: string,
  baseOffset: number,
  unitBuffer: Uint16Array,
  originBuffer: Int32Array,
): FoldedUnits {
  const length = text.length;
  // Typed buffers sized for the common case (one unit per character), grown for decompositions. No
  // closure writes to them: the loop below runs once per character and stays on local variables.
  // Invariant: room for one unit per character still to read, so only a decomposition checks for room.
  let units = unitBuffer;
  let origins = originBuffer;
  let size = 0;
  // A lone surrogate would not survive decoding as UTF-16: such text is decoded unit by unit.
  let loneSurrogate = false;
  let codePoint = baseOffset;
  let lastWasSeparator = true; // no leading space
  let lastWasLetter = false;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    const offset = codePoint++;
    if (code < 0x80) {
      const lower = ASCII_FOLD[code]!;
      if (lower >= 0) {
        units[size] = lower;
        origins[size++] = offset;
        // The rest of a run of ASCII non-separators, one unit each: the state is set once, after it.
        let last = code;
        while (i + 1 < length) {
          const following = text.charCodeAt(i + 1);
          if (following >= 0x80 || ASCII_FOLD[following]! < 0) break;
          i++;
          units[size] = ASCII_FOLD[following]!;
          origins[size++] = codePoint++;
          last = following;
        }
        lastWasSeparator = false;
        lastWasLetter = ASCII_ALNUM[last] === 1;
        continue;
      }
    }
    if (SEPARATOR_CODES[code] === 1) {
      if (
        (code === 0x2d || code === 0x2010 || code === 0x2011) &&
        lastWasLetter &&
        isLineEndHyphen(text, i)
      ) {
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
    const needed = size + folded.length + (length - i - 1);
    if (needed > units.length) [units, origins] = grow(units, origins, size, needed + 16);
    for (let unit = 0; unit < folded.length; unit++) {
      units[size] = folded.charCodeAt(unit);
      origins[size++] = offset;
    }
  }
  if (units !== unitBuffer && unitBuffer === sharedUnits) {
    sharedUnits = units;
    sharedOrigins = origins;
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
  return {
    folded,
    origin: origins.subarray(0, size),
    codePoints: codePoint - baseOffset,
    units: units.subarray(0, size),
  };
}

function grow(
  units: Uint16Array,
  origins: Int32Array,
  size: number,
  needed: number,
): [Uint16Array, Int32Array] {
  const capacity = Math.max(needed, units.length * 2);
  const grownUnits = new Uint16Array(capacity);
  grownUnits.set(units.subarray(0, size));
  const grownOrigins = new Int32Array(capacity);
  grownOrigins.set(origins.subarray(0, size));
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
