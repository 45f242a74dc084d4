import { describe, expect, it } from "vitest";
import type { RuleOutcome } from "../types.js";
import { evaluateRules, MAX_RECORDED_OUTCOMES, runRules } from "./evaluate-rules.js";

const doc = {
  total: 10,
  name: "Acme",
  items: [{ price: 4 }, { price: 6 }, { price: null }, {}],
  empty: [],
};

function only(rules: unknown[], document: unknown = doc): RuleOutcome[] {
  return evaluateRules(rules, document).outcomes;
}

const range = (extra: Record<string, unknown> = {}) => ({
  id: "r",
  type: "RANGE",
  field: "/total",
  min: 0,
  ...extra,
});

describe("common rule fields", () => {
  it("id is required: a rule without id reports ERROR with an empty ruleId", () => {
    const [outcome] = only([{ type: "RANGE", field: "/total", min: 0 }]);
    expect(outcome).toMatchObject({ ruleId: "", verdict: "ERROR", field: "/total" });
    expect(outcome?.actual).toContain("id is required");
  });

  it("id: a later duplicate reports ERROR, the first one is evaluated", () => {
    const outcomes = only([range(), range()]);
    expect(outcomes.map((o) => o.verdict)).toEqual(["PASS", "ERROR"]);
    expect(outcomes[1]?.actual).toContain("duplicate rule id 'r'");
  });

  it("type is required and case-sensitive", () => {
    expect(only([{ id: "a", field: "/total", min: 0 }])[0]?.verdict).toBe("ERROR");
    expect(only([{ id: "a", type: "range", field: "/total", min: 0 }])[0]?.verdict).toBe("ERROR");
  });

  it("severity defaults to WARNING and is copied to the outcome", () => {
    expect(only([range()])[0]?.severity).toBe("WARNING");
    expect(only([range({ severity: "INFO" })])[0]?.severity).toBe("INFO");
  });

  it("severity: unknown or lower-case value is invalid", () => {
    expect(only([range({ severity: "error" })])[0]?.verdict).toBe("ERROR");
  });

  it("severity: explicit null makes the rule invalid", () => {
    const [outcome] = only([range({ severity: null })]);
    expect(outcome?.verdict).toBe("ERROR");
    expect(outcome?.actual).toContain("severity");
  });

  it("automationBlocker defaults to false, is copied, and null falls back to the default", () => {
    expect(only([range()])[0]?.automationBlocker).toBe(false);
    expect(only([range({ automationBlocker: true })])[0]?.automationBlocker).toBe(true);
    expect(only([range({ automationBlocker: null })])[0]).toMatchObject({
      verdict: "PASS",
      automationBlocker: false,
    });
  });

  it("onFail defaults to WARN and is recorded as action, not enforced", () => {
    expect(only([range()])[0]?.action).toBe("WARN");
    expect(only([range({ onFail: "REJECT", max: 1 })])[0]).toMatchObject({
      verdict: "FAIL",
      action: "REJECT",
    });
  });

  it("onFail: explicit null makes the rule invalid", () => {
    expect(only([range({ onFail: null })])[0]?.verdict).toBe("ERROR");
  });

  it("enabled: a disabled rule produces no outcome, null falls back to enabled", () => {
    expect(only([range({ enabled: false })])).toEqual([]);
    expect(only([range({ enabled: null })])[0]?.verdict).toBe("PASS");
  });

  it("failOnMissing: default false reports SKIPPED for absent input, true reports FAIL", () => {
    expect(only([range({ field: "/nope" })])[0]).toMatchObject({ verdict: "SKIPPED", field: "/nope" });
    expect(only([range({ field: "/nope", failOnMissing: true })])[0]).toMatchObject({
      verdict: "FAIL",
      field: "/nope",
    });
    expect(only([range({ field: "/nope", failOnMissing: null })])[0]?.verdict).toBe("SKIPPED");
  });

  it("a non-boolean boolean field makes the rule invalid", () => {
    expect(only([range({ failOnMissing: "yes" })])[0]?.verdict).toBe("ERROR");
  });

  it("a rule that is not an object reports ERROR and does not stop the others", () => {
    const outcomes = only(["nonsense", range()]);
    expect(outcomes.map((o) => o.verdict)).toEqual(["ERROR", "PASS"]);
  });
});

describe("pointers", () => {
  it("empty pointer is the document root", () => {
    expect(only([{ id: "e", type: "ENUM", field: "", values: ["x"] }])[0]).toMatchObject({
      verdict: "ERROR",
      field: "",
    });
    expect(only([{ id: "e", type: "ENUM", field: "", values: ["x"] }], "x")[0]?.verdict).toBe("PASS");
  });

  it("a wildcard expands over an array: one outcome per location with its concrete pointer", () => {
    const outcomes = only([range({ field: "/items/*/price", max: 5 })]);
    expect(outcomes.map((o) => [o.field, o.verdict])).toEqual([
      ["/items/0/price", "PASS"],
      ["/items/1/price", "FAIL"],
      ["/items/2/price", "SKIPPED"],
      ["/items/3/price", "SKIPPED"],
    ]);
  });

  it("two wildcards are a configuration error", () => {
    expect(only([range({ field: "/items/*/x/*" })])[0]).toMatchObject({
      verdict: "ERROR",
      field: "/items/*/x/*",
    });
  });

  it("a non-empty pointer not starting with / is a configuration error", () => {
    expect(only([range({ field: "total" })])[0]?.verdict).toBe("ERROR");
  });

  it("missing key is one miss at the configured pointer", () => {
    expect(only([range({ field: "/missing/deep" })])).toEqual([
      expect.objectContaining({ verdict: "SKIPPED", field: "/missing/deep", actual: "missing" }),
    ]);
  });

  it("index out of range is a miss", () => {
    expect(only([range({ field: "/items/9/price" })])[0]).toMatchObject({
      verdict: "SKIPPED",
      field: "/items/9/price",
    });
  });

  it("wildcard over a non-array is one miss at the configured pointer", () => {
    expect(only([range({ field: "/name/*" })])).toEqual([
      expect.objectContaining({ verdict: "SKIPPED", field: "/name/*" }),
    ]);
  });

  it("wildcard over an empty array resolves nothing: one miss at the configured pointer", () => {
    expect(only([range({ field: "/empty/*/price", failOnMissing: true })])).toEqual([
      expect.objectContaining({ verdict: "FAIL", field: "/empty/*/price" }),
    ]);
  });

  it("explicit null at a resolved location gives SKIPPED there (FAIL with failOnMissing)", () => {
    expect(only([range({ field: "/items/2/price" })])[0]).toMatchObject({
      verdict: "SKIPPED",
      actual: "null",
    });
    expect(only([range({ field: "/items/2/price", failOnMissing: true })])[0]?.verdict).toBe("FAIL");
  });

  it("a key literally named * cannot be addressed", () => {
    const outcomes = only([range({ field: "/*" })], { "*": 5 });
    expect(outcomes).toEqual([expect.objectContaining({ verdict: "SKIPPED", field: "/*" })]);
  });

  it("~0 and ~1 escapes address keys with ~ and /", () => {
    const outcomes = only([range({ field: "/a~1b/c~0d" })], { "a/b": { "c~d": 3 } });
    expect(outcomes[0]).toMatchObject({ verdict: "PASS", field: "/a~1b/c~0d" });
  });

  it("values are read at their JSON type without conversion", () => {
    expect(only([range({ field: "/n" })], { n: "5" })[0]?.verdict).toBe("ERROR");
  });
});

describe("precedence", () => {
  it("(1) a broken rule beats an absent field", () => {
    const outcomes = only([
      { id: "a", type: "REGEX", field: "/absent", pattern: "(" },
      { id: "b", type: "ENUM", field: "/absent", values: [] },
      { id: "c", type: "RANGE", field: "/absent", min: 5, max: 1 },
    ]);
    expect(outcomes.map((o) => o.verdict)).toEqual(["ERROR", "ERROR", "ERROR"]);
  });

  it("(2) a configuration problem yields one ERROR per rule, a value-level ERROR is per location", () => {
    expect(only([range({ field: "/items/*/price", min: "x" })])).toHaveLength(1);
    const perLocation = only([range({ field: "/items/*/v" })], { items: [{ v: "a" }, { v: "b" }] });
    expect(perLocation.map((o) => [o.field, o.verdict])).toEqual([
      ["/items/0/v", "ERROR"],
      ["/items/1/v", "ERROR"],
    ]);
  });

  it("(3) failOnMissing turns only SKIPPED into FAIL, never ERROR", () => {
    expect(only([range({ field: "/name", failOnMissing: true })])[0]?.verdict).toBe("ERROR");
    expect(only([range({ field: "/x", min: "bad", failOnMissing: true })])[0]?.verdict).toBe("ERROR");
  });

  it("(4) a pathological pattern stops evaluation altogether: the report is applied:false", () => {
    const report = evaluateRules([range(), { id: "evil", type: "REGEX", field: "/s", pattern: "(a+)+b" }], {
      total: 1,
      s: `${"a".repeat(40)}c`,
    });
    expect(report).toMatchObject({ applied: false, passCount: 0, outcomes: [] });
  });
});

describe("rule report", () => {
  it("no rules: applied with zero counts", () => {
    expect(evaluateRules(undefined, doc)).toEqual({
      applied: true,
      passCount: 0,
      failCount: 0,
      skippedCount: 0,
      errorCount: 0,
      truncated: false,
      outcomes: [],
    });
  });

  it("rules that are not an array cannot run: applied:false", () => {
    expect(evaluateRules({ id: "x" }, doc).applied).toBe(false);
  });

  it("counts are true totals; outcomes are capped at 200 with truncated", () => {
    const items = Array.from({ length: 150 }, (_, i) => ({ v: i }));
    const rules = [
      { id: "a", type: "RANGE", field: "/items/*/v", max: 99 },
      { id: "b", type: "RANGE", field: "/items/*/v", min: 0 },
    ];
    const report = evaluateRules(rules, { items });
    expect(report.outcomes).toHaveLength(MAX_RECORDED_OUTCOMES);
    expect(report.truncated).toBe(true);
    expect(report.passCount + report.failCount).toBe(300);
    expect(report.failCount).toBe(50);
    expect(runRules(rules, { items }).outcomes).toHaveLength(300);
  });

  it("exactly 200 outcomes are not truncated", () => {
    const items = Array.from({ length: 200 }, () => ({ v: 1 }));
    const report = evaluateRules([{ id: "a", type: "RANGE", field: "/items/*/v", min: 0 }], { items });
    expect(report).toMatchObject({ truncated: false, passCount: 200 });
  });

  it("outcome carries ruleId, field, verdict, expected, actual, severity, automationBlocker, action", () => {
    expect(only([range({ max: 5, severity: "ERROR", automationBlocker: true, onFail: "FLAG" })])[0]).toEqual({
      ruleId: "r",
      field: "/total",
      verdict: "FAIL",
      expected: ">= 0 and <= 5",
      actual: "10",
      severity: "ERROR",
      automationBlocker: true,
      action: "FLAG",
    });
  });

  it("never modifies the document", () => {
    const copy = structuredClone(doc);
    evaluateRules([range({ field: "/items/*/price" })], copy);
    expect(copy).toEqual(doc);
  });
});
