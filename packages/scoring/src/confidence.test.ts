import { describe, expect, it } from "vitest";
import { compositeConfidence, type FieldSignals, NO_SIGNALS, provenanceOf } from "./confidence.js";
import type { FieldGrounding, RuleSeverity } from "./types.js";

const g = (score: number, basis: FieldGrounding["basis"] = "exact_match"): FieldGrounding => ({
  score,
  basis,
});
const failed = (severity: RuleSeverity, automationBlocker = false) => ({ severity, automationBlocker });
const signals = (extra: Partial<FieldSignals>): FieldSignals => ({ ...NO_SIGNALS, ...extra });

describe("composite confidence signal table", () => {
  it("one or more schema violations: cap 0.2", () => {
    expect(compositeConfidence(g(1), signals({ schemaViolations: 1 }))).toEqual({
      score: 0.2,
      basis: "schema_capped",
    });
    expect(compositeConfidence(g(1), signals({ schemaViolations: 3 }))).toEqual({
      score: 0.2,
      basis: "schema_capped",
    });
  });

  it("failed rule with automationBlocker true: cap 0.1", () => {
    expect(compositeConfidence(g(0.9), signals({ failedRules: [failed("INFO", true)] }))).toEqual({
      score: 0.1,
      basis: "blocker_capped",
    });
  });

  it("failed rule with severity ERROR: cap 0.3", () => {
    expect(compositeConfidence(g(0.9), signals({ failedRules: [failed("ERROR")] }))).toEqual({
      score: 0.3,
      basis: "rule_capped",
    });
  });

  it("failed rule with severity WARNING: deduction 0.2 once per failure", () => {
    expect(compositeConfidence(g(1), signals({ failedRules: [failed("WARNING")] }))).toEqual({
      score: 0.8,
      basis: "rule_penalized",
    });
    expect(
      compositeConfidence(g(1), signals({ failedRules: [failed("WARNING"), failed("WARNING")] })).score,
    ).toBe(0.6);
  });

  it("failed rule with severity INFO: deduction 0.05 once per failure", () => {
    expect(compositeConfidence(g(0.9), signals({ failedRules: [failed("INFO")] }))).toEqual({
      score: 0.85,
      basis: "rule_penalized",
    });
    expect(
      compositeConfidence(g(0.9), signals({ failedRules: [failed("INFO"), failed("INFO"), failed("INFO")] }))
        .score,
    ).toBe(0.75);
  });

  it("rule that passed: no score change", () => {
    expect(compositeConfidence(g(0.8, "partial_match"), signals({ passedRules: 2 }))).toEqual({
      score: 0.8,
      basis: "grounded",
    });
  });
});

describe("score formula", () => {
  it("severity and automationBlocker act independently: a blocking WARNING deducts and caps", () => {
    expect(compositeConfidence(g(1), signals({ failedRules: [failed("WARNING", true)] }))).toEqual({
      score: 0.1,
      basis: "blocker_capped",
    });
  });

  it("the smallest applicable cap wins", () => {
    const all = signals({ schemaViolations: 1, failedRules: [failed("ERROR", true)] });
    expect(compositeConfidence(g(1), all)).toEqual({ score: 0.1, basis: "blocker_capped" });
    expect(
      compositeConfidence(g(1), signals({ schemaViolations: 1, failedRules: [failed("ERROR")] })),
    ).toEqual({
      score: 0.2,
      basis: "schema_capped",
    });
  });

  it("deductions add without limit and the score is clamped at 0", () => {
    const many = signals({ failedRules: Array.from({ length: 7 }, () => failed("WARNING")) });
    expect(compositeConfidence(g(1), many)).toEqual({ score: 0, basis: "rule_penalized" });
  });

  it("rounds to 2 decimals exactly (0.9 - 0.2 - 0.05 = 0.65, not 0.6499999)", () => {
    expect(
      compositeConfidence(g(0.9), signals({ failedRules: [failed("WARNING"), failed("INFO")] })).score,
    ).toBe(0.65);
  });

  it("rounds half up a grounding score that is not whole hundredths", () => {
    expect(compositeConfidence(g(0.125), NO_SIGNALS).score).toBe(0.13);
  });

  it("nothing raises a score: a cap above the grounding score leaves it alone", () => {
    expect(compositeConfidence(g(0.1, "not_found"), signals({ failedRules: [failed("ERROR")] }))).toEqual({
      score: 0.1,
      basis: "grounded",
    });
  });
});

describe("confidence basis table", () => {
  it("blocker_capped: a blocking rule failed and its 0.1 cap is the score", () => {
    expect(
      compositeConfidence(g(0.5, "unverifiable"), signals({ failedRules: [failed("INFO", true)] })).basis,
    ).toBe("blocker_capped");
  });

  it("schema_capped: schema violation, 0.2 cap is the score", () => {
    expect(compositeConfidence(g(0.5, "unverifiable"), signals({ schemaViolations: 1 })).basis).toBe(
      "schema_capped",
    );
  });

  it("rule_capped: an ERROR-severity rule failed, 0.3 cap is the score", () => {
    expect(
      compositeConfidence(g(0.8, "partial_match"), signals({ failedRules: [failed("ERROR")] })).basis,
    ).toBe("rule_capped");
  });

  it("rule_penalized: deductions lowered the score, no cap applied", () => {
    expect(compositeConfidence(g(0.5, "unverifiable"), signals({ failedRules: [failed("INFO")] }))).toEqual({
      score: 0.45,
      basis: "rule_penalized",
    });
  });

  it("rule_penalized: deductions pushed the score below a cap, which then does not bind", () => {
    const result = compositeConfidence(
      g(0.3),
      signals({ schemaViolations: 1, failedRules: [failed("WARNING")] }),
    );
    expect(result).toEqual({ score: 0.1, basis: "rule_penalized" });
  });

  it("low_information: grounding could not verify and nothing negative applied", () => {
    expect(compositeConfidence(g(0.5, "unverifiable"), signals({ passedRules: 1 }))).toEqual({
      score: 0.5,
      basis: "low_information",
    });
  });

  it("grounded: nothing lowered the grounding score", () => {
    expect(compositeConfidence(g(0.9, "normalized_match"), NO_SIGNALS)).toEqual({
      score: 0.9,
      basis: "grounded",
    });
  });

  it("tie rule: a cap equal to the deducted score takes the label", () => {
    // 0.5 - 0.2 = 0.3 equals the ERROR cap: rule_capped, not rule_penalized.
    const tie = signals({ failedRules: [failed("WARNING"), failed("ERROR")] });
    expect(compositeConfidence(g(0.5, "unverifiable"), tie)).toEqual({ score: 0.3, basis: "rule_capped" });
    // 0.3 - 0.1 (two INFO) = 0.2 equals the schema cap.
    const schemaTie = signals({ schemaViolations: 1, failedRules: [failed("INFO"), failed("INFO")] });
    expect(compositeConfidence(g(0.3), schemaTie)).toEqual({ score: 0.2, basis: "schema_capped" });
  });
});

describe("provenance", () => {
  const confident = { score: 0.9, basis: "grounded" as const };

  it("grounding, rule, threshold in that order", () => {
    expect(provenanceOf(g(0.9, "normalized_match"), signals({ passedRules: 1 }), confident, 0.5)).toEqual([
      "grounding",
      "rule",
      "threshold",
    ]);
  });

  it("grounding when found in text (exact, normalized or partial) or system_assigned", () => {
    for (const basis of ["exact_match", "normalized_match", "partial_match", "system_assigned"] as const) {
      expect(provenanceOf(g(0.8, basis), NO_SIGNALS, confident, null)).toEqual(["grounding"]);
    }
    for (const basis of ["unverifiable", "not_found", "default_absent"] as const) {
      expect(provenanceOf(g(0.5, basis), NO_SIGNALS, confident, null)).toEqual([]);
    }
  });

  it("threshold only when configured and met (equal meets)", () => {
    expect(provenanceOf(g(0.5, "unverifiable"), NO_SIGNALS, confident, 0.9)).toEqual(["threshold"]);
    expect(provenanceOf(g(0.5, "unverifiable"), NO_SIGNALS, confident, 0.95)).toEqual([]);
    expect(provenanceOf(g(0.5, "unverifiable"), NO_SIGNALS, confident, null)).toEqual([]);
  });

  it("an empty list means nothing vouches for the value", () => {
    expect(
      provenanceOf(g(0.1, "not_found"), signals({ failedRules: [failed("WARNING")] }), confident, null),
    ).toEqual([]);
  });
});
