import { describe, expect, it } from "vitest";
import { evaluateRules } from "./evaluate-rules.js";

const run = (pattern: unknown, v: unknown, extra: Record<string, unknown> = {}) =>
  evaluateRules([{ id: "re", type: "REGEX", field: "/v", pattern, ...extra }], { v }).outcomes;

describe("REGEX", () => {
  it("holds when the string matches the pattern in full", () => {
    expect(run("INV-\\d+", "INV-42")[0]).toMatchObject({ verdict: "PASS", expected: "matches INV-\\d+" });
    expect(run("INV-\\d+", "INV-42x")[0]?.verdict).toBe("FAIL");
    expect(run("\\d+", "a1")[0]?.verdict).toBe("FAIL");
  });

  it("full match tries alternatives to cover the whole input (Java matches())", () => {
    expect(run("a|ab", "ab")[0]?.verdict).toBe("PASS");
  });

  it("one outcome per location", () => {
    const outcomes = evaluateRules([{ id: "re", type: "REGEX", field: "/v/*", pattern: "[a-z]+" }], {
      v: ["abc", "AB", "x"],
    }).outcomes;
    expect(outcomes.map((o) => o.verdict)).toEqual(["PASS", "FAIL", "PASS"]);
  });

  it("non-string value is ERROR", () => {
    expect(run("\\d+", 42)[0]).toMatchObject({ verdict: "ERROR", field: "/v" });
  });

  it("missing pattern is ERROR", () => {
    expect(run(undefined, "x")[0]?.verdict).toBe("ERROR");
  });

  it("invalid pattern is ERROR, even when the field is absent", () => {
    expect(run("(unclosed", "x")[0]?.actual).toContain("invalid pattern");
    const absent = evaluateRules([{ id: "re", type: "REGEX", field: "/nope", pattern: "[" }], {}).outcomes;
    expect(absent[0]?.verdict).toBe("ERROR");
  });

  it("untranslatable Java constructs are ERROR", () => {
    expect(run("[a-z&&[^e]]", "x")[0]?.verdict).toBe("ERROR");
    expect(run("\\p{InGreek}", "x")[0]?.verdict).toBe("ERROR");
  });

  it("Java syntax is honoured: possessive, atomic, embedded flags, POSIX classes", () => {
    expect(run("(?i)inv-\\d++", "INV-7")[0]?.verdict).toBe("PASS");
    expect(run("\\d++1", "221")[0]?.verdict).toBe("FAIL");
    expect(run("\\p{Upper}{2}\\p{Digit}{2}", "DE89")[0]?.verdict).toBe("PASS");
    expect(run("(?>ab|a)b", "ab")[0]?.verdict).toBe("FAIL");
  });

  it("a pattern that exceeds the time budget stops the whole report", () => {
    const report = evaluateRules([{ id: "bomb", type: "REGEX", field: "/v", pattern: "(\\w|\\d)+$x" }], {
      v: "1".repeat(64),
    });
    expect(report.applied).toBe(false);
  });
});
