import { describe, expect, it } from "vitest";
import { fullMatchSource, translateJavaRegex } from "./java-regex.js";

/** Java `Pattern.matches(pattern, input)` as translated. */
function matches(pattern: string, input: string): boolean {
  const translation = translateJavaRegex(pattern);
  if (!translation.ok) throw new Error(translation.reason);
  return new RegExp(fullMatchSource(translation), `${translation.flags}y`).test(input);
}

function rejected(pattern: string): string {
  const translation = translateJavaRegex(pattern);
  if (translation.ok) throw new Error(`expected ${pattern} to be rejected, got ${translation.source}`);
  return translation.reason;
}

describe("Java regex translation: what is translated", () => {
  it("possessive quantifiers *+ ++ ?+ {n,m}+ never give back", () => {
    expect(matches("a*+a", "aaa")).toBe(false);
    expect(matches("a++b", "aab")).toBe(true);
    expect(matches("a?+a", "a")).toBe(false);
    expect(matches("a{1,3}+a", "aaa")).toBe(false);
    expect(matches("a{1,3}+a", "aaaa")).toBe(true);
  });

  it("atomic groups (?>...) do not backtrack into the group", () => {
    expect(matches("(?>a|ab)c", "abc")).toBe(false);
    expect(matches("(?>ab|a)c", "abc")).toBe(true);
  });

  it("user back-references are renumbered around the groups the emulation adds", () => {
    expect(matches("(?>x)(a)\\1", "xaa")).toBe(true);
    expect(matches("(a)++(b)\\2", "abb")).toBe(true);
    expect(matches("(a)\\10", "aa0")).toBe(true);
    expect(matches("(?<q>['\"])\\w+\\k<q>", "'abc'")).toBe(true);
  });

  it("\\A, \\z and \\Z anchors", () => {
    expect(matches("\\Aabc\\z", "abc")).toBe(true);
    expect(matches("abc\\Z\\n", "abc\n")).toBe(true);
    expect(matches("(?m)a$\\nb", "a\nb")).toBe(true);
  });

  it("$ without MULTILINE is end of input or before a final line terminator", () => {
    expect(matches("abc$\\n?", "abc\n")).toBe(true);
    expect(matches("a$b", "ab")).toBe(false);
  });

  it("embedded flags at the start: (?i) (?s) (?m) (?x) (?u) (?d) and combinations", () => {
    expect(matches("(?i)abc", "ABC")).toBe(true);
    expect(matches("(?s)a.b", "a\nb")).toBe(true);
    expect(matches("a.b", "a\nb")).toBe(false);
    expect(matches("(?x) a b # comment\n c", "abc")).toBe(true);
    expect(matches("(?iu)é", "É")).toBe(true);
    expect(matches("(?i)(?s)a.B", "A\nb")).toBe(true);
    expect(matches("(?d)a.b", "a\rb")).toBe(true);
    expect(matches("a.b", "a\u0085b")).toBe(false);
  });

  it("POSIX classes \\p{Alpha} \\p{Digit} \\p{Punct} ... are ASCII, also inside classes and negated", () => {
    expect(matches("\\p{Alpha}+", "abcXYZ")).toBe(true);
    expect(matches("\\p{Alpha}", "é")).toBe(false);
    expect(matches("\\p{Alnum}{3}", "a1B")).toBe(true);
    expect(matches("\\p{Punct}+", "!?.,")).toBe(true);
    expect(matches("\\p{XDigit}+", "09afAF")).toBe(true);
    expect(matches("[\\p{Lower}_]+", "a_b")).toBe(true);
    expect(matches("\\P{Digit}+", "abc")).toBe(true);
    expect(matches("[\\P{Digit}]", "5")).toBe(false);
    expect(matches("\\p{Space}\\p{Blank}\\p{Cntrl}", "\n\t\u0001")).toBe(true);
  });

  it("Unicode properties: \\p{L}, \\pL, \\p{IsLu}, \\p{IsLatin}, \\p{IsAlphabetic}, \\p{sc=Greek}, java* classes", () => {
    expect(matches("\\p{L}+", "Grüße")).toBe(true);
    expect(matches("\\pL+", "abc")).toBe(true);
    expect(matches("\\p{IsLu}", "Ä")).toBe(true);
    expect(matches("\\p{IsLatin}+", "abc")).toBe(true);
    expect(matches("\\p{IsAlphabetic}+", "日本")).toBe(true);
    expect(matches("\\p{sc=Greek}+", "αβγ")).toBe(true);
    expect(matches("\\p{javaLowerCase}+", "straße")).toBe(true);
    expect(matches("\\P{javaUpperCase}", "A")).toBe(false);
  });

  it("\\s is Java's ASCII whitespace, not JS's Unicode whitespace", () => {
    expect(matches("\\s", "\u00a0")).toBe(false);
    expect(matches("\\s", "\u000b")).toBe(true);
    expect(matches("\\S", "\u00a0")).toBe(true);
  });

  it("\\h \\v \\R, \\e \\a, \\x{...}, \\0 octal, \\cX, \\u surrogate pairs", () => {
    expect(matches("\\h", "\u00a0")).toBe(true);
    expect(matches("\\v", "\u2028")).toBe(true);
    expect(matches("a\\Rb", "a\r\nb")).toBe(true);
    expect(matches("\\e\\a", "\u001b\u0007")).toBe(true);
    expect(matches("\\x{1F600}", "😀")).toBe(true);
    expect(matches("\\x41\\0102\\u0043", "ABC")).toBe(true);
    expect(matches("\\cA", "\u0001")).toBe(true);
    expect(matches("\\uD83D\\uDE00", "😀")).toBe(true);
  });

  it("\\Q...\\E quotes literally", () => {
    expect(matches("\\Q1+1=2?\\E", "1+1=2?")).toBe(true);
    expect(matches("[\\Q-]\\E]+", "-]-")).toBe(true);
  });

  it("a ] right after [ is a literal; escaped non-alphanumerics are literals", () => {
    expect(matches("[]a]+", "]a")).toBe(true);
    expect(matches("\\-\\#\\ \\@", "-# @")).toBe(true);
  });

  it("astral characters count as one character", () => {
    expect(matches(".", "😀")).toBe(true);
    expect(matches("[😀-😂]", "😁")).toBe(true);
  });
});

describe("Java regex translation: what is rejected", () => {
  it.each([
    ["[a-z&&[^aeiou]]", "intersection"],
    ["[a[b]]", "nested character classes"],
    ["a(?i)b", "inline flags"],
    ["(?i:a)b", "inline flags"],
    ["(?U)\\w", "UNICODE_CHARACTER_CLASS"],
    ["\\Ga", "\\G"],
    ["\\X", "\\X"],
    ["\\N{LATIN SMALL LETTER A}", "\\N"],
    ["\\p{InGreek}", "unsupported character property"],
    ["\\p{block=Greek}", "unsupported character property"],
    ["\\y", "illegal escape"],
    ["(a", "unclosed group"],
    ["a)", "unmatched"],
    ["*a", "dangling"],
    ["a{2", "illegal repetition"],
    ["a{3,1}", "illegal repetition range"],
    ["[a-", "unclosed character class"],
    ["[z-a]", "illegal character range"],
    ["(a)\\2", "missing group"],
    ["\\p{IsNoSuchScript}", "Invalid"],
  ])("%s is rejected (%s)", (pattern, reason) => {
    expect(rejected(pattern)).toContain(reason);
  });
});
