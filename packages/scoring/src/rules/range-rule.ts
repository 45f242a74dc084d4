import { Dec } from "../decimal.js";
import {
  display,
  forEachValue,
  isJsonNumber,
  jsonType,
  parseRulePointer,
  RuleConfigError,
  type RuleEvaluator,
} from "./rule-kit.js";

function bound(value: unknown, name: string): Dec | null {
  if (value === undefined || value === null) return null;
  if (!isJsonNumber(value)) throw new RuleConfigError(`${name} must be a number`);
  return new Dec(value);
}

/** RANGE: the number at each location is within the inclusive bounds. */
export const evaluateRangeRule: RuleEvaluator = (rule, document, emit) => {
  const pointer = parseRulePointer(rule.field, "field", true);
  const min = bound(rule.min, "min");
  const max = bound(rule.max, "max");
  if (min === null && max === null) throw new RuleConfigError("at least one of min and max is required");
  if (min !== null && max !== null && min.greaterThan(max)) throw new RuleConfigError("min is above max");
  const expected = [
    min === null ? null : `>= ${min.toString()}`,
    max === null ? null : `<= ${max.toString()}`,
  ]
    .filter((part) => part !== null)
    .join(" and ");

  forEachValue(document, pointer, expected, emit, (value, field) => {
    if (!isJsonNumber(value)) {
      emit.error(field, expected, `value is a ${jsonType(value)}, not a number`);
      return;
    }
    const number = new Dec(value);
    const holds =
      (min === null || number.greaterThanOrEqualTo(min)) && (max === null || number.lessThanOrEqualTo(max));
    emit.verdict(field, holds, expected, display(value));
  });
};
