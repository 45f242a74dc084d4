import { isPlainObject } from "../extraction-config.js";
import type { RuleAction, RuleOutcome, RuleReport, RuleSeverity, RuleType, RuleVerdict } from "../types.js";
import { evaluateArithmeticRule } from "./arithmetic-rule.js";
import { evaluateCrossFieldRule } from "./cross-field-rule.js";
import { evaluateEnumRule } from "./enum-rule.js";
import { evaluateFormatRule } from "./format-rule.js";
import { evaluateRangeRule } from "./range-rule.js";
import { PathologicalPatternError } from "./regex-budget.js";
import { evaluateRegexRule } from "./regex-rule.js";
import { RuleConfigError, type RuleEmitter, type RuleEvaluator, type RuleFields } from "./rule-kit.js";

export const MAX_RECORDED_OUTCOMES = 200;

const EVALUATORS: Record<RuleType, RuleEvaluator> = {
  REGEX: evaluateRegexRule,
  RANGE: evaluateRangeRule,
  ENUM: evaluateEnumRule,
  ARITHMETIC: evaluateArithmeticRule,
  CROSS_FIELD: evaluateCrossFieldRule,
  FORMAT: evaluateFormatRule,
};
const SEVERITIES: readonly RuleSeverity[] = ["ERROR", "WARNING", "INFO"];
const ACTIONS: readonly RuleAction[] = ["WARN", "FLAG", "REJECT", "RETRY"];
const CONFIGURATION = "valid rule configuration";

export interface RuleRun {
  applied: boolean;
  /** Every outcome, not only the recorded 200: confidence attributes all of them. */
  outcomes: RuleOutcome[];
}

interface CommonFields {
  ruleId: string;
  severity: RuleSeverity;
  automationBlocker: boolean;
  action: RuleAction;
  failOnMissing: boolean;
  problems: string[];
}

/** Runs the business rules over the output. Never throws on a bad rule or a bad document. */
export function runRules(rules: unknown, document: unknown): RuleRun {
  if (rules === undefined || rules === null) return { applied: true, outcomes: [] };
  if (!Array.isArray(rules)) return { applied: false, outcomes: [] };
  const outcomes: RuleOutcome[] = [];
  const seenIds = new Set<string>();
  for (const rule of rules) {
    if (!isPlainObject(rule)) {
      outcomes.push(configError(common({}, seenIds), "", "rule must be an object"));
      continue;
    }
    const fields = common(rule, seenIds);
    if (rule.enabled === false) continue;
    const field = configuredField(rule);
    if (fields.problems.length > 0) {
      outcomes.push(configError(fields, field, fields.problems.join("; ")));
      continue;
    }
    try {
      outcomes.push(...evaluateOne(rule, document, fields));
    } catch (error) {
      // A pattern that blows its time budget stops evaluation altogether (spec precedence 4).
      if (error instanceof PathologicalPatternError) return { applied: false, outcomes: [] };
      const reason =
        error instanceof RuleConfigError
          ? error.message
          : `rule could not be evaluated: ${error instanceof Error ? error.message : String(error)}`;
      outcomes.push(configError(fields, field, reason));
    }
  }
  return { applied: true, outcomes };
}

export function evaluateRules(rules: unknown, document: unknown): RuleReport {
  const run = runRules(rules, document);
  return toRuleReport(run);
}

export function toRuleReport(run: RuleRun): RuleReport {
  const counts: Record<RuleVerdict, number> = { PASS: 0, FAIL: 0, SKIPPED: 0, ERROR: 0 };
  for (const outcome of run.outcomes) counts[outcome.verdict]++;
  return {
    applied: run.applied,
    passCount: counts.PASS,
    failCount: counts.FAIL,
    skippedCount: counts.SKIPPED,
    errorCount: counts.ERROR,
    truncated: run.outcomes.length > MAX_RECORDED_OUTCOMES,
    outcomes: run.outcomes.slice(0, MAX_RECORDED_OUTCOMES),
  };
}

/** Outcomes of one valid-looking rule; buffered so that a rule that throws leaves only its ERROR. */
function evaluateOne(rule: RuleFields, document: unknown, fields: CommonFields): RuleOutcome[] {
  const outcomes: RuleOutcome[] = [];
  const make = (field: string, verdict: RuleVerdict, expected: string, actual: string): RuleOutcome => ({
    ruleId: fields.ruleId,
    field,
    verdict,
    expected,
    actual,
    severity: fields.severity,
    automationBlocker: fields.automationBlocker,
    action: fields.action,
  });
  const emit: RuleEmitter = {
    verdict: (field, holds, expected, actual) =>
      outcomes.push(make(field, holds ? "PASS" : "FAIL", expected, actual)),
    // failOnMissing turns only SKIPPED into FAIL, never ERROR.
    missing: (field, expected, actual) =>
      outcomes.push(make(field, fields.failOnMissing ? "FAIL" : "SKIPPED", expected, actual)),
    error: (field, expected, reason) => outcomes.push(make(field, "ERROR", expected, reason)),
  };
  EVALUATORS[rule.type as RuleType](rule, document, emit);
  return outcomes;
}

function configError(fields: CommonFields, field: string, reason: string): RuleOutcome {
  return {
    ruleId: fields.ruleId,
    field,
    verdict: "ERROR",
    expected: CONFIGURATION,
    actual: reason,
    severity: fields.severity,
    automationBlocker: fields.automationBlocker,
    action: fields.action,
  };
}

/** Where a configuration ERROR is reported: the rule's own pointer when it has a usable one. */
function configuredField(rule: RuleFields): string {
  for (const candidate of [rule.field, rule.left]) if (typeof candidate === "string") return candidate;
  return "";
}

function booleanField(rule: RuleFields, name: string, problems: string[]): boolean {
  const value = rule[name];
  // A null boolean falls back to its default (false for all of these but `enabled`).
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") {
    problems.push(`${name} must be a boolean`);
    return false;
  }
  return value;
}

function enumField<T extends string>(
  rule: RuleFields,
  name: string,
  allowed: readonly T[],
  fallback: T,
  problems: string[],
): T {
  if (!Object.hasOwn(rule, name) || rule[name] === undefined) return fallback;
  const value = rule[name];
  // An explicit null is not "absent": the spec makes it invalid.
  if (!allowed.includes(value as T)) {
    problems.push(`${name} must be one of ${allowed.join(", ")}`);
    return fallback;
  }
  return value as T;
}

function common(rule: RuleFields, seenIds: Set<string>): CommonFields {
  const problems: string[] = [];
  const { id, type } = rule;
  let ruleId = "";
  if (typeof id === "string" && id !== "") {
    ruleId = id;
    if (seenIds.has(id)) problems.push(`duplicate rule id '${id}'`);
    seenIds.add(id);
  } else {
    problems.push(id === undefined || id === "" ? "id is required" : "id must be a string");
  }
  if (typeof type !== "string" || !Object.hasOwn(EVALUATORS, type)) {
    problems.push(`type must be one of ${Object.keys(EVALUATORS).join(", ")}`);
  }
  const severity = enumField(rule, "severity", SEVERITIES, "WARNING", problems);
  const action = enumField(rule, "onFail", ACTIONS, "WARN", problems);
  const automationBlocker = booleanField(rule, "automationBlocker", problems);
  const failOnMissing = booleanField(rule, "failOnMissing", problems);
  if (rule.enabled !== undefined && rule.enabled !== null && typeof rule.enabled !== "boolean") {
    problems.push("enabled must be a boolean");
  }
  return { ruleId, severity, automationBlocker, action, failOnMissing, problems };
}
