/**
 * Translates a Java (java.util.regex) pattern into an equivalent JavaScript one in `u` mode, or says
 * why it cannot. Rule configs come from support tooling written against Java semantics, so the
 * translation is explicit rather than "try the pattern in JS and hope": constructs that mean something
 * different in JS (`$`, `\s`, `.`, `\Z`) are rewritten, constructs JS lacks are emulated when an exact
 * emulation exists (possessive quantifiers, atomic groups, POSIX classes) and rejected otherwise.
 */

export type JavaRegexTranslation =
  | { ok: true; source: string; flags: string }
  | { ok: false; reason: string };

export class JavaRegexError extends Error {}

type CodeRange = readonly [number, number];

interface Capture {
  kind: "capture";
  name: string | null;
}
type Token =
  | { kind: "text"; text: string }
  | Capture
  | { kind: "ref"; target: Capture }
  | { kind: "userRef"; group: number };

const MAX_CODE_POINT = 0x10ffff;
const END_OF_INPUT = "(?![\\s\\S])";
const JAVA_LINE_TERMINATOR = "(?:\\r\\n|[\\n\\r\\u0085\\u2028\\u2029])";
const SYNTAX_CHARACTERS = new Set([..."^$\\.*+?()[]{}|/"]);
const CLASS_ESCAPED = new Set([..."\\]-[^"]);

const range = (from: string, to: string): CodeRange => [from.codePointAt(0)!, to.codePointAt(0)!];
const single = (char: string): CodeRange => range(char, char);

const JAVA_SPACE: CodeRange[] = [[0x09, 0x0d], single(" ")];
const JAVA_SPACE_CHARACTERS = new Set(["\t", "\n", "\u000b", "\f", "\r", " "]);
const HORIZONTAL_SPACE: CodeRange[] = [
  single("\t"),
  single(" "),
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x180e, 0x180e],
  [0x2000, 0x200a],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];
const VERTICAL_SPACE: CodeRange[] = [
  [0x0a, 0x0d],
  [0x85, 0x85],
  [0x2028, 0x2029],
];

// java.util.regex's US-ASCII POSIX classes.
const POSIX_CLASSES: Record<string, CodeRange[]> = {
  Lower: [range("a", "z")],
  Upper: [range("A", "Z")],
  ASCII: [[0x00, 0x7f]],
  Alpha: [range("a", "z"), range("A", "Z")],
  Digit: [range("0", "9")],
  Alnum: [range("a", "z"), range("A", "Z"), range("0", "9")],
  Punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  Graph: [[0x21, 0x7e]],
  Print: [[0x20, 0x7e]],
  Blank: [single(" "), single("\t")],
  Cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  XDigit: [range("0", "9"), range("a", "f"), range("A", "F")],
  Space: JAVA_SPACE,
};

// java.lang.Character predicates, by the Unicode property each one is defined with.
const JAVA_CHARACTER_CLASSES: Record<string, string | CodeRange[]> = {
  javaLowerCase: "\\p{Lowercase}",
  javaUpperCase: "\\p{Uppercase}",
  javaTitleCase: "\\p{Lt}",
  javaDigit: "\\p{Nd}",
  javaLetter: "\\p{L}",
  javaLetterOrDigit: "\\p{L}\\p{Nd}",
  javaAlphabetic: "\\p{Alphabetic}",
  javaIdeographic: "\\p{Ideographic}",
  javaMirrored: "\\p{Bidi_Mirrored}",
  javaWhitespace: [
    [0x09, 0x0d],
    [0x1c, 0x20],
    [0x1680, 0x1680],
    [0x2000, 0x2006],
    [0x2008, 0x200a],
    [0x2028, 0x2029],
    [0x205f, 0x205f],
    [0x3000, 0x3000],
  ],
};

// `\p{IsXxx}` binary properties Java accepts, keyed case- and underscore-insensitively.
const BINARY_PROPERTIES: Record<string, string> = {
  alphabetic: "Alphabetic",
  ideographic: "Ideographic",
  letter: "L",
  lowercase: "Lowercase",
  uppercase: "Uppercase",
  titlecase: "Lt",
  punctuation: "P",
  control: "Cc",
  whitespace: "White_Space",
  digit: "Nd",
  hexdigit: "Hex_Digit",
  joincontrol: "Join_Control",
  noncharactercodepoint: "Noncharacter_Code_Point",
  assigned: "Assigned",
  emoji: "Emoji",
};

const GENERAL_CATEGORIES = new Set(
  "L Lu Ll Lt Lm Lo LC M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po S Sm Sc Sk So Z Zs Zl Zp C Cc Cf Cs Co Cn".split(
    " ",
  ),
);

type ClassItem = { kind: "ranges"; ranges: CodeRange[] } | { kind: "text"; text: string };

function complement(ranges: readonly CodeRange[]): CodeRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const result: CodeRange[] = [];
  let next = 0;
  for (const [from, to] of sorted) {
    if (from > next) result.push([next, from - 1]);
    next = Math.max(next, to + 1);
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

function classChar(code: number): string {
  const char = String.fromCodePoint(code);
  if (CLASS_ESCAPED.has(char)) return `\\${char}`;
  return code < 0x20 || code > 0x7e ? `\\u{${code.toString(16)}}` : char;
}

function rangesText(ranges: readonly CodeRange[]): string {
  return ranges
    .map(([from, to]) => (from === to ? classChar(from) : `${classChar(from)}-${classChar(to)}`))
    .join("");
}

function literal(code: number): string {
  const char = String.fromCodePoint(code);
  if (SYNTAX_CHARACTERS.has(char)) return `\\${char}`;
  return code < 0x20 || code > 0x7e ? `\\u{${code.toString(16)}}` : char;
}

function itemAsAtom(item: ClassItem): string {
  return item.kind === "text" ? `[${item.text}]` : `[${rangesText(item.ranges)}]`;
}

function itemInClass(item: ClassItem): string {
  return item.kind === "text" ? item.text : rangesText(item.ranges);
}

interface Flags {
  caseInsensitive: boolean;
  multiline: boolean;
  dotAll: boolean;
  comments: boolean;
  unixLines: boolean;
}

class Translator {
  private index = 0;
  private readonly tokens: Token[] = [];
  private readonly userCaptures: Capture[] = [];
  private readonly flags: Flags = {
    caseInsensitive: false,
    multiline: false,
    dotAll: false,
    comments: false,
    unixLines: false,
  };

  constructor(private readonly pattern: string) {}

  translate(): { source: string; flags: string } {
    this.leadingFlags();
    const body = this.alternation();
    if (this.index < this.pattern.length) throw new JavaRegexError(`unmatched ')' at index ${this.index}`);
    this.tokens.push(...body);
    const flags = `u${this.flags.caseInsensitive ? "i" : ""}${this.flags.multiline ? "m" : ""}`;
    return { source: this.render(), flags };
  }

  private fail(reason: string): never {
    throw new JavaRegexError(`${reason} at index ${this.index}`);
  }

  private peek(offset = 0): string | undefined {
    return this.pattern[this.index + offset];
  }

  private startsWith(text: string): boolean {
    return this.pattern.startsWith(text, this.index);
  }

  /** `(?imsxud)` prefixes set whole-pattern flags; JS of Node 20 has no scoped modifiers for the rest. */
  private leadingFlags(): void {
    for (;;) {
      const match = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?\)/.exec(this.pattern.slice(this.index));
      if (match === null) return;
      const [text, on = "", off = ""] = match;
      for (const letter of on) this.setFlag(letter, true);
      for (const letter of off) this.setFlag(letter, false);
      this.index += text.length;
    }
  }

  private setFlag(letter: string, value: boolean): void {
    switch (letter) {
      case "i":
        this.flags.caseInsensitive = value;
        return;
      case "m":
        this.flags.multiline = value;
        return;
      case "s":
        this.flags.dotAll = value;
        return;
      case "x":
        this.flags.comments = value;
        return;
      case "d":
        this.flags.unixLines = value;
        return;
      case "u":
        // JS folds case over all of Unicode in `u` mode already.
        return;
      case "U":
        this.fail("flag U (UNICODE_CHARACTER_CLASS) is not supported");
        break;
      default:
        this.fail(`unknown flag '${letter}'`);
    }
  }

  private skipComments(): void {
    if (!this.flags.comments) return;
    for (;;) {
      const char = this.peek();
      if (char !== undefined && JAVA_SPACE_CHARACTERS.has(char)) {
        this.index++;
      } else if (char === "#") {
        while (this.index < this.pattern.length && this.peek() !== "\n") this.index++;
      } else {
        return;
      }
    }
  }

  private alternation(): Token[] {
    const result = this.sequence();
    while (this.peek() === "|") {
      this.index++;
      result.push({ kind: "text", text: "|" }, ...this.sequence());
    }
    return result;
  }

  private sequence(): Token[] {
    const result: Token[] = [];
    for (;;) {
      this.skipComments();
      const char = this.peek();
      if (char === undefined || char === "|" || char === ")") return result;
      let term = this.atom();
      this.skipComments();
      term = this.quantified(term);
      result.push(...term);
    }
  }

  private quantified(term: Token[]): Token[] {
    const quantifier = this.quantifier();
    if (quantifier === null) return term;
    if (term.length === 0) this.fail("dangling quantifier");
    const suffix = this.peek();
    if (suffix === "?") {
      this.index++;
      return [...term, { kind: "text", text: `${quantifier}?` }];
    }
    if (suffix === "+") {
      // Possessive: once matched, never given back — exactly what a capture inside a lookahead does.
      this.index++;
      return this.atomic([...term, { kind: "text", text: quantifier }]);
    }
    return [...term, { kind: "text", text: quantifier }];
  }

  private quantifier(): string | null {
    const char = this.peek();
    if (char === "*" || char === "+" || char === "?") {
      this.index++;
      return char;
    }
    if (char !== "{") return null;
    const match = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.index));
    if (match === null) this.fail("illegal repetition '{'");
    const min = Number(match[1]);
    const max = match[3] === undefined || match[3] === "" ? null : Number(match[3]);
    if (max !== null && max < min) this.fail("illegal repetition range");
    this.index += match[0].length;
    return match[0];
  }

  private atomic(inner: Token[]): Token[] {
    const capture: Capture = { kind: "capture", name: null };
    return [
      { kind: "text", text: "(?:(?=" },
      capture,
      ...inner,
      { kind: "text", text: "))" },
      { kind: "ref", target: capture },
      { kind: "text", text: ")" },
    ];
  }

  private atom(): Token[] {
    const char = this.peek()!;
    switch (char) {
      case "(":
        return this.group();
      case "[": {
        this.index++;
        return [{ kind: "text", text: this.characterClass() }];
      }
      case ".":
        this.index++;
        return [{ kind: "text", text: this.dot() }];
      case "^":
        this.index++;
        return [{ kind: "text", text: "^" }];
      case "$":
        this.index++;
        return [{ kind: "text", text: this.flags.multiline ? "$" : this.endBeforeTerminator() }];
      case "\\":
        return this.escape();
      case "*":
      case "+":
      case "?":
        return this.fail("dangling meta character");
      case "{":
        return this.fail("illegal repetition '{'");
      default: {
        const code = this.pattern.codePointAt(this.index)!;
        this.index += code > 0xffff ? 2 : 1;
        return [{ kind: "text", text: literal(code) }];
      }
    }
  }

  private dot(): string {
    if (this.flags.dotAll) return "[\\s\\S]";
    return this.flags.unixLines ? "[^\\n]" : "[^\\n\\r\\u0085\\u2028\\u2029]";
  }

  private endBeforeTerminator(): string {
    return this.flags.unixLines ? `(?=\\n?${END_OF_INPUT})` : `(?=${JAVA_LINE_TERMINATOR}?${END_OF_INPUT})`;
  }

  private group(): Token[] {
    this.index++;
    let open: Token[];
    let atomic = false;
    if (this.startsWith("?")) {
      const rest = this.pattern.slice(this.index);
      const named = /^\?<([a-zA-Z][a-zA-Z0-9]*)>/.exec(rest);
      if (named !== null) {
        const capture: Capture = { kind: "capture", name: named[1]! };
        this.userCaptures.push(capture);
        open = [capture];
        this.index += named[0].length;
      } else if (/^\?(:|=|!|<=|<!)/.test(rest)) {
        const prefix = /^\?(:|=|!|<=|<!)/.exec(rest)![0];
        open = [{ kind: "text", text: `(${prefix}` }];
        this.index += prefix.length;
      } else if (rest.startsWith("?>")) {
        atomic = true;
        open = [];
        this.index += 2;
      } else if (/^\?[a-zA-Z-]*[:)]/.test(rest)) {
        return this.fail("inline flags are only supported at the start of the pattern");
      } else {
        return this.fail("unknown group construct");
      }
    } else {
      const capture: Capture = { kind: "capture", name: null };
      this.userCaptures.push(capture);
      open = [capture];
    }
    const inner = this.alternation();
    if (this.peek() !== ")") this.fail("unclosed group");
    this.index++;
    if (atomic) return this.atomic(inner);
    return [...open, ...inner, { kind: "text", text: ")" }];
  }

  private escape(): Token[] {
    this.index++;
    const char = this.peek();
    if (char === undefined) return this.fail("pattern ends with a backslash");
    if (/[1-9]/.test(char)) return [this.backReference()];
    switch (char) {
      case "A":
        this.index++;
        return [{ kind: "text", text: "(?<![\\s\\S])" }];
      case "z":
        this.index++;
        return [{ kind: "text", text: END_OF_INPUT }];
      case "Z":
        this.index++;
        return [{ kind: "text", text: this.endBeforeTerminator() }];
      case "b":
      case "B":
        this.index++;
        return [{ kind: "text", text: `\\${char}` }];
      case "R":
        this.index++;
        return [{ kind: "text", text: "(?:\\r\\n|[\\n\\x0B\\f\\r\\u0085\\u2028\\u2029])" }];
      case "Q":
        return [{ kind: "text", text: this.quoted().map(literal).join("") }];
      case "k": {
        const named = /^k<([a-zA-Z][a-zA-Z0-9]*)>/.exec(this.pattern.slice(this.index));
        if (named === null) return this.fail("malformed named back-reference");
        this.index += named[0].length;
        return [{ kind: "text", text: `\\k<${named[1]}>` }];
      }
      case "G":
      case "X":
      case "N":
        return this.fail(`\\${char} is not supported`);
      default: {
        const item = this.classEscape();
        return [{ kind: "text", text: typeof item === "number" ? literal(item) : itemAsAtom(item) }];
      }
    }
  }

  /** Java reads as many digits as still name an existing group: `\11` is group 11 only if it exists. */
  private backReference(): Token {
    let group = Number(this.peek());
    this.index++;
    while (this.peek() !== undefined && /[0-9]/.test(this.peek()!)) {
      const extended = group * 10 + Number(this.peek());
      if (extended > this.userCaptures.length) break;
      group = extended;
      this.index++;
    }
    return { kind: "userRef", group };
  }

  private quoted(): number[] {
    this.index++;
    const end = this.pattern.indexOf("\\E", this.index);
    const text = end === -1 ? this.pattern.slice(this.index) : this.pattern.slice(this.index, end);
    this.index = end === -1 ? this.pattern.length : end + 2;
    return [...text].map((char) => char.codePointAt(0)!);
  }

  /** An escape valid both inside and outside a class: a code point or a set of them. Index is past `\`. */
  private classEscape(): number | ClassItem {
    const char = this.peek()!;
    this.index++;
    switch (char) {
      case "t":
        return 0x09;
      case "n":
        return 0x0a;
      case "r":
        return 0x0d;
      case "f":
        return 0x0c;
      case "a":
        return 0x07;
      case "e":
        return 0x1b;
      case "0":
        return this.octal();
      case "x":
        return this.hex();
      case "u":
        return this.unicodeEscape();
      case "c": {
        const control = this.peek();
        if (control === undefined) this.fail("\\c needs a character");
        this.index++;
        return control.codePointAt(0)! ^ 64;
      }
      case "d":
      case "D":
      case "w":
      case "W":
        return { kind: "text", text: `\\${char}` };
      case "s":
        return { kind: "ranges", ranges: JAVA_SPACE };
      case "S":
        return { kind: "ranges", ranges: complement(JAVA_SPACE) };
      case "h":
        return { kind: "ranges", ranges: HORIZONTAL_SPACE };
      case "H":
        return { kind: "ranges", ranges: complement(HORIZONTAL_SPACE) };
      case "v":
        return { kind: "ranges", ranges: VERTICAL_SPACE };
      case "V":
        return { kind: "ranges", ranges: complement(VERTICAL_SPACE) };
      case "p":
      case "P":
        return this.property(char === "P");
      default: {
        this.index--;
        const code = this.pattern.codePointAt(this.index)!;
        if (/[a-zA-Z0-9]/.test(char)) this.fail(`illegal escape \\${char}`);
        this.index += code > 0xffff ? 2 : 1;
        return code;
      }
    }
  }

  private octal(): number {
    const match = /^[0-7]{1,3}/.exec(this.pattern.slice(this.index));
    if (match === null) this.fail("illegal octal escape");
    let digits = match[0];
    // Java: three digits only when the first is 0-3 (the value must fit in \0377).
    if (digits.length === 3 && digits[0]! > "3") digits = digits.slice(0, 2);
    this.index += digits.length;
    return Number.parseInt(digits, 8);
  }

  private hex(): number {
    const rest = this.pattern.slice(this.index);
    const braced = /^\{([0-9a-fA-F]+)\}/.exec(rest);
    const match = braced ?? /^[0-9a-fA-F]{2}/.exec(rest);
    if (match === null) this.fail("illegal hexadecimal escape");
    const code = Number.parseInt(braced === null ? match[0] : match[1]!, 16);
    if (code > MAX_CODE_POINT) this.fail("hexadecimal code point out of range");
    this.index += match[0].length;
    return code;
  }

  private unicodeEscape(): number {
    const read = (): number => {
      const match = /^[0-9a-fA-F]{4}/.exec(this.pattern.slice(this.index));
      if (match === null) this.fail("illegal unicode escape");
      this.index += 4;
      return Number.parseInt(match[0], 16);
    };
    const high = read();
    // Java joins an escaped surrogate pair into one code point.
    if (high >= 0xd800 && high <= 0xdbff && this.startsWith("\\u")) {
      const save = this.index;
      this.index += 2;
      const low = /^[0-9a-fA-F]{4}/.test(this.pattern.slice(this.index)) ? read() : -1;
      if (low >= 0xdc00 && low <= 0xdfff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
      this.index = save;
    }
    return high;
  }

  private property(negated: boolean): ClassItem {
    let name: string;
    if (this.peek() === "{") {
      const end = this.pattern.indexOf("}", this.index);
      if (end === -1) this.fail("unclosed character property");
      name = this.pattern.slice(this.index + 1, end);
      this.index = end + 1;
    } else {
      name = this.peek() ?? this.fail("missing character property name");
      this.index++;
    }
    const posix = POSIX_CLASSES[name];
    if (posix !== undefined) return { kind: "ranges", ranges: negated ? complement(posix) : posix };
    const javaClass = JAVA_CHARACTER_CLASSES[name];
    if (javaClass !== undefined) {
      if (typeof javaClass !== "string")
        return { kind: "ranges", ranges: negated ? complement(javaClass) : javaClass };
      if (!negated) return { kind: "text", text: javaClass };
      // A negated union of properties is the intersection of their negations; only single ones qualify.
      if (javaClass.lastIndexOf("\\p") !== 0) this.fail(`\\P{${name}} is not supported`);
      return { kind: "text", text: javaClass.replace("\\p", "\\P") };
    }
    const property = unicodeProperty(name);
    if (property === null) this.fail(`unsupported character property '${name}'`);
    return { kind: "text", text: `\\${negated ? "P" : "p"}{${property}}` };
  }

  private characterClass(): string {
    let negated = false;
    if (this.peek() === "^") {
      negated = true;
      this.index++;
    }
    const parts: string[] = [];
    let first = true;
    for (;;) {
      this.skipComments();
      const char = this.peek();
      if (char === undefined) this.fail("unclosed character class");
      // Java reads a `]` before any member as a literal.
      if (char === "]" && !first) {
        this.index++;
        break;
      }
      if (char === "[") this.fail("nested character classes are not supported");
      if (this.startsWith("&&")) this.fail("character class intersection is not supported");
      first = false;
      const from = this.classMember();
      if (
        typeof from === "number" &&
        this.peek() === "-" &&
        this.peek(1) !== "]" &&
        this.peek(1) !== undefined
      ) {
        this.index++;
        const to = this.classMember();
        if (typeof to !== "number") this.fail("illegal character range");
        if (to < from) this.fail("illegal character range");
        parts.push(rangesText([[from, to]]));
      } else {
        parts.push(typeof from === "number" ? classChar(from) : itemInClass(from));
      }
    }
    return `[${negated ? "^" : ""}${parts.join("")}]`;
  }

  private classMember(): number | ClassItem {
    const char = this.peek()!;
    if (char !== "\\") {
      const code = this.pattern.codePointAt(this.index)!;
      this.index += code > 0xffff ? 2 : 1;
      return code;
    }
    this.index++;
    const next = this.peek();
    if (next === undefined) this.fail("pattern ends with a backslash");
    if (next === "Q") {
      const quoted = this.quoted();
      return { kind: "text", text: quoted.map(classChar).join("") };
    }
    if (/[1-9bBAzZRGXNk]/.test(next)) this.fail(`\\${next} is not allowed in a character class`);
    return this.classEscape();
  }

  private render(): string {
    const numbers = new Map<Capture, number>();
    for (const token of this.tokens) if (token.kind === "capture") numbers.set(token, numbers.size + 1);
    return this.tokens.map((token) => this.renderToken(token, numbers)).join("");
  }

  private renderToken(token: Token, numbers: ReadonlyMap<Capture, number>): string {
    switch (token.kind) {
      case "text":
        return token.text;
      case "capture":
        return token.name === null ? "(" : `(?<${token.name}>`;
      case "ref":
        // Wrapped so that a following literal digit cannot extend the group number.
        return `(?:\\${numbers.get(token.target)})`;
      case "userRef": {
        const target = this.userCaptures[token.group - 1];
        if (target === undefined) return this.fail(`back-reference to missing group ${token.group}`);
        return `(?:\\${numbers.get(target)})`;
      }
    }
  }
}

/** Java property names (`L`, `IsLu`, `IsLatin`, `IsAlphabetic`, `sc=Greek`) as JS `\p{...}` bodies. */
function unicodeProperty(name: string): string | null {
  const keyed = /^(general_category|gc|script|sc|block|blk)=(.+)$/i.exec(name);
  if (keyed !== null) {
    const key = keyed[1]!.toLowerCase();
    if (key === "block" || key === "blk") return null;
    return key === "script" || key === "sc" ? `Script=${keyed[2]}` : `General_Category=${keyed[2]}`;
  }
  if (GENERAL_CATEGORIES.has(name)) return name;
  if (name.startsWith("In")) return null; // Unicode blocks: JS has no block properties.
  const bare = name.startsWith("Is") ? name.slice(2) : name;
  if (GENERAL_CATEGORIES.has(bare)) return bare;
  const binary = BINARY_PROPERTIES[bare.toLowerCase().replace(/[_\s-]/g, "")];
  if (binary !== undefined) return binary;
  if (name.startsWith("Is") && /^[A-Za-z_]+$/.test(bare)) {
    return `Script=${bare[0]!.toUpperCase()}${bare.slice(1)}`;
  }
  return null;
}

export function translateJavaRegex(pattern: string): JavaRegexTranslation {
  try {
    const translated = new Translator(pattern).translate();
    // Let the JS engine confirm the result (e.g. an unknown script name) before it is used.
    new RegExp(translated.source, translated.flags);
    return { ok: true, ...translated };
  } catch (error) {
    if (error instanceof JavaRegexError || error instanceof SyntaxError)
      return { ok: false, reason: error.message };
    throw error;
  }
}

/** A RegExp that succeeds only when the Java pattern matches the whole input (Java `matches()`). */
export function fullMatchSource(translation: { source: string }): string {
  return `(?:${translation.source})${END_OF_INPUT}`;
}
