/**
 * A fast path for `wc -l` on standard input in `platform_bash` (decision PT14), the end of
 * most counting pipelines (`grep -r x . | wc -l`). The bundled wc walks its input one
 * character at a time to count lines, words and characters even when only lines are asked
 * for; counting newline bytes with `indexOf` gives the same number (a newline is the same
 * byte in UTF-8 and in the shell's latin1 byte strings) and the same output (`<n>\n`, no
 * padding for a single count of standard input). Any other invocation — files, `-`, other
 * or more flags — is handed unchanged to the bundled wc through `origCommand`.
 */
import { defineCommand, latin1FromBytes } from "just-bash";

/** The invocations answered here: exactly one line-count flag and no operand. */
export function isStdinLineCount(args: readonly string[]): boolean {
  return args.length === 1 && (args[0] === "-l" || args[0] === "--lines");
}

/** Newline bytes in a latin1 byte string. */
export function countNewlines(bytes: string): number {
  let count = 0;
  for (let at = bytes.indexOf("\n"); at !== -1; at = bytes.indexOf("\n", at + 1)) count++;
  return count;
}

/** `wc`, answered here for `wc -l` on standard input and by the bundled wc otherwise. */
export const lineCountWc = defineCommand(
  "wc",
  async (args, ctx) => {
    const original = ctx.origCommand;
    if (original === undefined) throw new Error("wc: the bundled wc is not registered");
    if (!isStdinLineCount(args)) return original(args);
    return { stdout: `${countNewlines(latin1FromBytes(ctx.stdin))}\n`, stderr: "", exitCode: 0 };
  },
  { trusted: true },
);
