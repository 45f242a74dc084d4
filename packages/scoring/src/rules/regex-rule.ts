import { fullMatchSource, translateJavaRegex } from "./java-regex.js";
import { testAllWithinBudget } from "./regex-budget.js";
import {
  display,
  forEachValue,
  jsonType,
  parseRulePointer,
  RuleConfigError,
  type RuleEvaluator,
} from "./rule-kit.js";

/** REGEX: the string at each location matches the Java-style pattern in full. */
export const evaluateRegexRule: RuleEvaluator = (rule, document, emit) => {
  const pointer = parseRulePointer(rule.field, "field", true);
  if (typeof rule.pattern !== "string") throw new RuleConfigError("pattern must be a string");
  const translation = translateJavaRegex(rule.pattern);
  if (!translation.ok) throw new RuleConfigError(`invalid pattern: ${translation.reason}`);
  const expected = `matches ${rule.pattern}`;

  // Misses and type errors are decided at once; strings are matched together under one time budget.
  // A pending step is the index of a matched string (the common case, kept free of a closure per value)
  // or a deferred emission for a miss or a type error.
  const pending: Array<number | (() => void)> = [];
  const inputs: string[] = [];
  const fields: string[] = [];
  forEachValue(
    document,
    pointer,
    expected,
    {
      verdict: (...args) => pending.push(() => emit.verdict(...args)),
      missing: (...args) => pending.push(() => emit.missing(...args)),
      error: (...args) => pending.push(() => emit.error(...args)),
    },
    (value, field) => {
      if (typeof value !== "string") {
        pending.push(() => emit.error(field, expected, `value is a ${jsonType(value)}, not a string`));
        return;
      }
      pending.push(inputs.push(value) - 1);
      fields.push(field);
    },
  );
  const ruleId = typeof rule.id === "string" ? rule.id : "";
  const results = testAllWithinBudget(fullMatchSource(translation), `${translation.flags}y`, inputs, ruleId);
  for (const step of pending) {
    if (typeof step === "number")
      emit.verdict(fields[step]!, results[step]!, expected, display(inputs[step]));
    else step();
  }
};
