import { Dec } from "../decimal.js";
import {
  display,
  isJsonNumber,
  jsonType,
  parseRulePointer,
  RuleConfigError,
  type RuleEvaluator,
  resolveRulePointer,
} from "./rule-kit.js";

const OPERATORS = ["EQ", "NE", "LT", "LTE", "GT", "GTE"] as const;
type Operator = (typeof OPERATORS)[number];

function holds(operator: Operator, comparison: number): boolean {
  switch (operator) {
    case "EQ":
      return comparison === 0;
    case "NE":
      return comparison !== 0;
    case "LT":
      return comparison < 0;
    case "LTE":
      return comparison <= 0;
    case "GT":
      return comparison > 0;
    case "GTE":
      return comparison >= 0;
  }
}

/** CROSS_FIELD: `left <operator> right`, one outcome at the left pointer (or at a missing side). */
export const evaluateCrossFieldRule: RuleEvaluator = (rule, document, emit) => {
  const left = parseRulePointer(rule.left, "left", false);
  const right = parseRulePointer(rule.right, "right", false);
  const operator = rule.operator as Operator;
  if (!OPERATORS.includes(operator))
    throw new RuleConfigError(`operator must be one of ${OPERATORS.join(", ")}`);
  const expected = `${left.text} ${operator} ${right.text}`;

  const sides = [left, right].map((pointer) => ({
    pointer,
    location: resolveRulePointer(document, pointer)?.[0],
  }));
  for (const { pointer, location } of sides) {
    if (location === undefined || !location.found || location.value === null) {
      emit.missing(pointer.text, expected, location?.found ? "null" : "missing");
      return;
    }
  }
  const [a, b] = sides.map(({ location }) => (location?.found ? location.value : undefined));
  const actual = `${display(a)} ${operator} ${display(b)}`;
  if (isJsonNumber(a) && isJsonNumber(b)) {
    emit.verdict(left.text, holds(operator, new Dec(a).comparedTo(b)), expected, actual);
  } else if (typeof a === "string" && typeof b === "string" && (operator === "EQ" || operator === "NE")) {
    emit.verdict(left.text, holds(operator, a === b ? 0 : 1), expected, actual);
  } else {
    emit.error(left.text, expected, `cannot compare ${jsonType(a)} with ${jsonType(b)} using ${operator}`);
  }
};
