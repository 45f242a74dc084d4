import { Dec } from "../decimal.js";
import {
  display,
  forEachValue,
  jsonType,
  parseRulePointer,
  RuleConfigError,
  type RuleEvaluator,
} from "./rule-kit.js";

/** The text form values are compared by: strings as they are, anything else as JSON text. */
function textForm(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

function equalsEntry(value: unknown, entry: unknown): boolean {
  if (typeof value === "number" && typeof entry === "number") return new Dec(value).equals(new Dec(entry));
  return textForm(value) === textForm(entry);
}

/** ENUM: the value at each location equals one entry (case-sensitive; numbers as decimals). */
export const evaluateEnumRule: RuleEvaluator = (rule, document, emit) => {
  const pointer = parseRulePointer(rule.field, "field", true);
  const { values } = rule;
  if (!Array.isArray(values) || values.length === 0)
    throw new RuleConfigError("values must be a non-empty array");
  const expected = `one of ${display(values)}`;

  forEachValue(document, pointer, expected, emit, (value, field) => {
    if (typeof value === "object") {
      emit.error(field, expected, `value is an ${jsonType(value)}, not a scalar`);
      return;
    }
    emit.verdict(
      field,
      values.some((entry) => equalsEntry(value, entry)),
      expected,
      display(value),
    );
  });
};
