import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compositeConfidence, type FailedRuleSignal } from "./confidence.js";
import type { BusinessRuleConfig, ExtractionConfig } from "./extraction-config.js";
import { validateAgainstSchema } from "./schema-validation.js";
import { type ScoringInput, scoreResult } from "./score-result.js";
import type { ResultScoring } from "./types.js";

const WORDS = ["Acme", "INV-1", "bolt", "steel_beam", "Größe", "x", "12", "naïve café", "P 100"];
const word = fc.constantFrom(...WORDS);
const scalar = fc.oneof(
  word,
  fc.integer({ min: -5, max: 500 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const item = fc.dictionary(fc.constantFrom("sku", "name", "qty", "note", "fileName"), scalar, { maxKeys: 5 });
const output = fc.record(
  {
    invoiceNumber: scalar,
    vendor: fc.oneof(scalar, fc.record({ name: scalar })),
    tags: fc.array(scalar, { maxLength: 3 }),
    parts: fc.array(item, { maxLength: 4 }),
  },
  { requiredKeys: [] },
);
const text = fc.array(word, { maxLength: 12 }).map((words) => words.join(" "));
const severity = fc.constantFrom("ERROR", "WARNING", "INFO");
const pointer = fc.constantFrom(
  "/invoiceNumber",
  "/vendor",
  "/vendor/name",
  "/tags/0",
  "/parts/*/qty",
  "/parts/0/sku",
  "/parts/*/name",
);
const rule = fc.oneof(
  fc.record({
    type: fc.constant("RANGE"),
    field: pointer,
    min: fc.integer({ min: 0, max: 100 }),
    severity,
    automationBlocker: fc.boolean(),
  }),
  fc.record({
    type: fc.constant("ENUM"),
    field: pointer,
    values: fc.array(word, { minLength: 1, maxLength: 3 }),
    severity,
  }),
  fc.record({
    type: fc.constant("REGEX"),
    field: pointer,
    pattern: fc.constantFrom("\\w+", "[A-Z].*", "\\d++"),
    severity,
  }),
  fc.record({
    type: fc.constant("FORMAT"),
    field: pointer,
    format: fc.constantFrom("EMAIL", "DATE_ISO"),
    severity,
  }),
);
const rules = fc
  .array(rule, { maxLength: 4 })
  .map((list) => list.map((r, i) => ({ ...r, id: `r${i}` }) as BusinessRuleConfig));
const threshold = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined });
const config = fc.record({ rules, t1: threshold, t2: threshold }).map(
  ({ rules, t1, t2 }): ExtractionConfig => ({
    rules,
    validation: { properties: t1 === undefined ? {} : { parts: { confidenceThreshold: t1 } } },
    confidence: { properties: t2 === undefined ? {} : { invoiceNumber: { threshold: t2 } } },
  }),
);
const schema = {
  type: "object",
  required: ["invoiceNumber"],
  properties: {
    invoiceNumber: { type: "string", minLength: 3 },
    parts: { type: "array", items: { type: "object", properties: { qty: { type: "integer", minimum: 1 } } } },
  },
};
const input = fc
  .record({ output, inputText: text, extractionConfig: config })
  .map((value): ScoringInput => ({ jsonSchema: schema, ...value }));

function allScores(result: ResultScoring): number[] {
  const scoring = result.scoring;
  if (scoring === null) return [];
  const entries = [
    ...Object.values(scoring.fields),
    ...Object.values(scoring.items).flatMap((i) => Object.values(i.fields)),
  ];
  return [
    scoring.grounding.score,
    ...Object.values(scoring.items).map((i) => i.grounding.score),
    ...entries.flatMap((e) => [e.grounding.score, ...(e.confidence === null ? [] : [e.confidence.score])]),
    ...(scoring.confidence?.flags.map((f) => f.confidence) ?? []),
  ];
}

/** Composite scores by flat field key. */
function confidences(result: ResultScoring): Map<string, number> {
  const scores = new Map<string, number>();
  const scoring = result.scoring;
  if (scoring === null) return scores;
  for (const [name, entry] of Object.entries(scoring.fields))
    scores.set(name, entry.confidence?.score ?? Number.NaN);
  for (const [key, entry] of Object.entries(scoring.items)) {
    for (const [name, field] of Object.entries(entry.fields))
      scores.set(`${key}.${name}`, field.confidence?.score ?? Number.NaN);
  }
  return scores;
}

describe("scoring invariants", () => {
  it("every score is in [0, 1]", () => {
    fc.assert(
      fc.property(input, (value) => {
        for (const score of allScores(scoreResult(value))) {
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("adding a failing rule never raises a score", () => {
    fc.assert(
      fc.property(input, pointer, severity, fc.boolean(), (value, field, ruleSeverity, blocker) => {
        const before = confidences(scoreResult(value));
        const failing: BusinessRuleConfig = {
          id: "always-fails",
          type: "ENUM",
          field,
          values: ["\u0000never"],
          severity: ruleSeverity,
          automationBlocker: blocker,
        };
        const rulesBefore = value.extractionConfig?.rules ?? [];
        const after = confidences(
          scoreResult({
            ...value,
            extractionConfig: { ...value.extractionConfig, rules: [...rulesBefore, failing] },
          }),
        );
        expect([...after.keys()]).toEqual([...before.keys()]);
        for (const [key, score] of after) expect(score).toBeLessThanOrEqual(before.get(key)!);
      }),
      { numRuns: 150 },
    );
  });

  it("caps and deductions never raise a score above grounding, and adding a signal never raises it", () => {
    const failed = fc.record({ severity, automationBlocker: fc.boolean() }) as fc.Arbitrary<FailedRuleSignal>;
    const signals = fc.record({
      schemaViolations: fc.nat(3),
      failedRules: fc.array(failed, { maxLength: 5 }),
      passedRules: fc.nat(3),
    });
    const grounding = fc.record({
      score: fc.constantFrom(0, 0.1, 0.5, 0.8, 0.9, 1),
      basis: fc.constantFrom(
        "exact_match",
        "unverifiable",
        "not_found",
        "partial_match",
      ) as fc.Arbitrary<"exact_match">,
    });
    fc.assert(
      fc.property(grounding, signals, failed, (g, s, extra) => {
        const base = compositeConfidence(g, s);
        expect(base.score).toBeLessThanOrEqual(g.score);
        const moreFailures = compositeConfidence(g, { ...s, failedRules: [...s.failedRules, extra] });
        const moreViolations = compositeConfidence(g, { ...s, schemaViolations: s.schemaViolations + 1 });
        const morePasses = compositeConfidence(g, { ...s, passedRules: s.passedRules + 1 });
        expect(moreFailures.score).toBeLessThanOrEqual(base.score);
        expect(moreViolations.score).toBeLessThanOrEqual(base.score);
        expect(morePasses).toEqual(base);
      }),
      { numRuns: 500 },
    );
  });

  it("the same input always gives the same report", () => {
    fc.assert(
      fc.property(input, (value) => {
        expect(scoreResult(structuredClone(value))).toEqual(scoreResult(value));
      }),
      { numRuns: 100 },
    );
  });

  it("violations <= 100 and violationCount >= the list length", () => {
    const arraySchema = {
      type: "array",
      items: { type: "object", required: ["a"], properties: { a: { type: "string" } } },
    };
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 250 }), (values) => {
        const report = validateAgainstSchema(arraySchema, values);
        expect(report.violations.length).toBeLessThanOrEqual(100);
        expect(report.violationCount).toBeGreaterThanOrEqual(report.violations.length);
        expect(report.truncated).toBe(report.violationCount > 100);
      }),
      { numRuns: 100 },
    );
  });
});
