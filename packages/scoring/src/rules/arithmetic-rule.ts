import { Dec } from "../decimal.js";
import { isPlainObject } from "../extraction-config.js";
import {
  display,
  isJsonNumber,
  jsonType,
  parseRulePointer,
  RuleConfigError,
  type RuleEvaluator,
  resolveRulePointer,
} from "./rule-kit.js";

/** ARITHMETIC: |field - SUM(operands)| <= tolerance, one outcome at the field. */
export const evaluateArithmeticRule: RuleEvaluator = (rule, document, emit) => {
  const target = parseRulePointer(rule.field, "field", false);
  if (!isPlainObject(rule.equals)) throw new RuleConfigError("equals must be an object {op, operands}");
  const { op, operands } = rule.equals;
  if (op !== "SUM") throw new RuleConfigError(`unsupported op ${display(op)}; only SUM is supported`);
  if (!Array.isArray(operands) || operands.length === 0) {
    throw new RuleConfigError("equals.operands must be a non-empty array of pointers");
  }
  const operandPointers = operands.map((operand, index) =>
    parseRulePointer(operand, `operands[${index}]`, true),
  );
  const tolerance = rule.tolerance === undefined || rule.tolerance === null ? null : rule.tolerance;
  if (tolerance !== null && (!isJsonNumber(tolerance) || tolerance < 0)) {
    throw new RuleConfigError("tolerance must be a non-negative number");
  }
  const allowed = new Dec(tolerance ?? 0);
  const describe = (sum: string) =>
    `SUM(${operandPointers.map((pointer) => pointer.text).join(", ")}) = ${sum}${allowed.isZero() ? "" : ` ± ${allowed.toString()}`}`;

  const field = resolveRulePointer(document, target)?.[0];
  if (field === undefined || !field.found || field.value === null) {
    emit.missing(target.text, describe("?"), field?.found ? "null" : "missing");
    return;
  }
  if (!isJsonNumber(field.value)) {
    emit.error(target.text, describe("?"), `value is a ${jsonType(field.value)}, not a number`);
    return;
  }

  let sum = new Dec(0);
  let counted = 0;
  for (const pointer of operandPointers) {
    for (const location of resolveRulePointer(document, pointer) ?? []) {
      // Absent and null operands are not counted.
      if (!location.found || location.value === null) continue;
      if (!isJsonNumber(location.value)) {
        emit.error(
          target.text,
          describe("?"),
          `operand ${location.pointer} is a ${jsonType(location.value)}, not a number`,
        );
        return;
      }
      sum = sum.plus(location.value);
      counted++;
    }
  }
  if (counted === 0) {
    emit.missing(target.text, describe("?"), "no operand resolved");
    return;
  }
  const holds = new Dec(field.value).minus(sum).abs().lessThanOrEqualTo(allowed);
  emit.verdict(target.text, holds, describe(sum.toString()), display(field.value));
};
