import vm from "node:vm";

/**
 * The guard against catastrophic patterns. JS regular expressions backtrack and cannot be interrupted
 * from JS, and no static analyser is both complete and free of false alarms (safe-regex-style star-height
 * checks miss `(a|a)*$` and flag harmless `(ab*)*`). So matching runs inside a `node:vm` script with a
 * `timeout`: V8 interrupts the running regular expression itself when the budget is spent. One script
 * call covers every location of a rule, so the watchdog costs about 0.15 ms per rule, not per value.
 */
export const REGEX_TIME_BUDGET_MS = 250;

export class PathologicalPatternError extends Error {
  constructor(readonly ruleId: string) {
    super(`pattern of rule '${ruleId}' exceeded the ${REGEX_TIME_BUDGET_MS} ms matching budget`);
  }
}

const context = vm.createContext({});
const script = new vm.Script(`(() => {
  const expression = new RegExp(source, flags);
  const results = [];
  for (let i = 0; i < inputs.length; i++) {
    expression.lastIndex = 0;
    results.push(expression.test(inputs[i]));
  }
  return results;
})()`);

/** Whether each input matches; throws PathologicalPatternError when the budget runs out. */
export function testAllWithinBudget(
  source: string,
  flags: string,
  inputs: readonly string[],
  ruleId: string,
  budgetMs: number = REGEX_TIME_BUDGET_MS,
): boolean[] {
  if (inputs.length === 0) return [];
  Object.assign(context, { source, flags, inputs });
  try {
    return Array.from(script.runInContext(context, { timeout: budgetMs }) as ArrayLike<boolean>);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      throw new PathologicalPatternError(ruleId);
    }
    throw error;
  } finally {
    // Do not keep the last document's strings alive in the shared context.
    Object.assign(context, { source: "", flags: "", inputs: [] });
  }
}
