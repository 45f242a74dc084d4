/**
 * A fast path for `grep` in `platform_bash` (decision PT13). just-bash's grep runs every
 * candidate line through re2js (linear time, safe against pathological patterns, but slow:
 * ~200 ms for `grep -r x` over 1 MB). When the pattern is a plain literal — printable ASCII
 * without any regular-expression metacharacter, so it means the same string in basic,
 * extended and fixed mode — matching a line is exactly `line.includes(pattern)`, and this
 * command does that with the same traversal, file order, prefixes, messages and exit codes
 * as the bundled grep. Everything else (other flags, real regexes, standard input, globs,
 * `-i`, any error or limit on the way) is handed unchanged to the bundled grep through
 * `origCommand`; grep writes nothing, so starting over there is safe.
 */
import {
  bytesOutput,
  defineCommand,
  type ExecResult,
  type InMemoryFs,
  unsafeBytesFromLatin1,
} from "just-bash";

type Context = Parameters<Parameters<typeof defineCommand>[1]>[1];
/** The reads the fast path makes, on the shell's own file system (see `literalGrep`). */
export type GrepFiles = Pick<InMemoryFs, "resolvePath" | "stat" | "readdirWithFileTypes" | "readFile">;
type Result = { stdout: string; stderr: string; exitCode: number };

/** Characters that make a pattern a regex in any grep mode (basic, extended, fixed). */
const LITERAL = /^[\x20-\x7e\t]+$/;
const META = /[\\.[\]*^$+?(){}|]/;

const SHORT = new Set(["r", "R", "n", "c", "l", "L", "h", "v", "q", "F", "E"]);
const LONG: Record<string, string> = {
  "--recursive": "r",
  "--line-number": "n",
  "--count": "c",
  "--files-with-matches": "l",
  "--files-without-match": "L",
  "--no-filename": "h",
  "--invert-match": "v",
  "--quiet": "q",
  "--silent": "q",
  "--fixed-strings": "F",
  "--extended-regexp": "E",
};

interface Plan {
  flags: Set<string>;
  pattern: string;
  operands: string[];
}

/** The invocation, when it is one the fast path answers exactly; otherwise null. */
export function fastGrepPlan(args: readonly string[]): Plan | null {
  const flags = new Set<string>();
  const operands: string[] = [];
  let pattern: string | null = null;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (options && arg === "--") {
      options = false;
      continue;
    }
    if (options && arg.startsWith("-") && arg !== "-") {
      if (arg === "-e") {
        if (pattern !== null || i + 1 >= args.length) return null;
        pattern = args[++i] as string;
        continue;
      }
      if (arg.startsWith("--")) {
        const flag = LONG[arg];
        if (flag === undefined) return null;
        flags.add(flag);
        continue;
      }
      for (const ch of arg.slice(1)) {
        if (!SHORT.has(ch)) return null;
        flags.add(ch === "R" ? "r" : ch);
      }
      continue;
    }
    operands.push(arg);
  }
  if (pattern === null) pattern = operands.shift() ?? null;
  if (pattern === null || !LITERAL.test(pattern) || META.test(pattern)) return null;
  // Standard input, `-` and operands grep would expand as globs stay with the bundled grep.
  if (operands.length === 0) return null;
  if (operands.some((op) => op === "-" || op.includes("*") || op.includes("?") || op.includes("["))) {
    return null;
  }
  return { flags, pattern, operands };
}

/** Thrown to hand the whole invocation to the bundled grep. */
class Fallback extends Error {}

interface Budget {
  operations: number;
  results: number;
  maxOperations: number;
  maxResults: number;
}

function operation(budget: Budget): void {
  if (++budget.operations > budget.maxOperations) throw new Fallback();
}

function result(budget: Budget): void {
  if (budget.results >= budget.maxResults) throw new Fallback();
  budget.results++;
}

interface Target {
  path: string;
  isFile?: boolean;
}

/** The bundled grep's recursive walk: directory order, dot entries skipped, depth 256. */
async function walk(
  ctx: Context,
  files: GrepFiles,
  path: string,
  isFile: boolean | undefined,
  budget: Budget,
  out: Target[],
  depth: number,
): Promise<void> {
  if (depth >= 256) return;
  const resolved = files.resolvePath(ctx.cwd, path);
  let file: boolean;
  let directory: boolean;
  if (isFile !== undefined) {
    file = isFile;
    directory = !isFile;
  } else {
    operation(budget);
    const stat = await files.stat(resolved).catch(() => {
      throw new Fallback();
    });
    file = stat.isFile;
    directory = stat.isDirectory;
  }
  if (file) {
    result(budget);
    out.push({ path, isFile: true });
    return;
  }
  if (!directory) throw new Fallback();
  operation(budget);
  const entries = await files.readdirWithFileTypes(resolved);
  for (const entry of entries) {
    operation(budget);
    if (entry.name.startsWith(".")) continue;
    const child = path === "." ? entry.name : `${path}/${entry.name}`;
    await walk(ctx, files, child, entry.isFile, budget, out, depth + 1);
  }
}

interface FileResult {
  output: string;
  matched: boolean;
}

/** Newlines in `text` from `from` up to (not including) `to`. */
function newlinesBetween(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/** One file's lines, as the bundled search answers them for a literal pattern. */
function search(ctx: Context, text: string, plan: Plan, filename: string): FileResult {
  const invert = plan.flags.has("v");
  const count = plan.flags.has("c");
  const lineNumbers = plan.flags.has("n");
  const maxLines = ctx.limits.maxArrayElements;
  const loops = ctx.limits.maxLoopIterations;
  const maxWork = Math.max(loops, Math.min(maxLines, loops * 10));
  // The lines are what `text.split("\n")` gives, without the empty one after a final newline.
  const newlines = newlinesBetween(text, 0, text.length);
  // The same limits as the bundled search (line count, matching work); past them, it decides.
  if (newlines + 1 > maxLines) throw new Fallback();
  const total = text === "" || text.endsWith("\n") ? newlines : newlines + 1;
  if (Math.ceil(text.length / 1024) + total > maxWork) throw new Fallback();
  const prefix = filename ? `${filename}:` : "";
  if (invert) {
    const lines = text.split("\n");
    let n = 0;
    let output = "";
    for (let i = 0; i < total; i++) {
      const line = lines[i] as string;
      if (line.includes(plan.pattern)) continue;
      n++;
      if (!count) output += lineNumbers ? `${prefix}${i + 1}:${line}\n` : `${prefix}${line}\n`;
    }
    return { output: count ? `${prefix}${n}\n` : output, matched: n > 0 };
  }
  // Jump from match to match instead of testing every line: the pattern holds no newline, so
  // a match lies within one line, and a line is listed once (the search goes on after it).
  let n = 0;
  let output = "";
  let lineNumber = 1;
  let counted = 0;
  for (let at = text.indexOf(plan.pattern); at !== -1; ) {
    const start = text.lastIndexOf("\n", at) + 1;
    const newline = text.indexOf("\n", at);
    const end = newline === -1 ? text.length : newline;
    n++;
    if (!count) {
      const line = text.slice(start, end);
      if (lineNumbers) {
        lineNumber += newlinesBetween(text, counted, start);
        counted = start;
        output += `${prefix}${lineNumber}:${line}\n`;
      } else output += `${prefix}${line}\n`;
    }
    if (newline === -1) break;
    at = text.indexOf(plan.pattern, newline + 1);
  }
  return { output: count ? `${prefix}${n}\n` : output, matched: n > 0 };
}

async function fastGrep(ctx: Context, files: GrepFiles, plan: Plan): Promise<Result> {
  const recursive = plan.flags.has("r");
  const budget: Budget = {
    operations: 0,
    results: 0,
    maxOperations: ctx.limits.maxGlobOperations,
    maxResults: ctx.limits.maxArrayElements,
  };
  const targets: Target[] = [];
  for (const operand of plan.operands) {
    if (recursive) await walk(ctx, files, operand, undefined, budget, targets, 0);
    else {
      if (targets.length >= budget.maxResults) throw new Fallback();
      targets.push({ path: operand });
    }
  }
  const withNames = (targets.length > 1 || recursive) && !plan.flags.has("h");
  const quiet = plan.flags.has("q");
  const listMatches = plan.flags.has("l");
  const listMisses = plan.flags.has("L");
  const count = plan.flags.has("c");
  let stdout = "";
  let stderr = "";
  let matchedAny = false;
  let failed = false;
  for (const target of targets) {
    if (ctx.signal?.aborted) throw new Fallback();
    const resolved = files.resolvePath(ctx.cwd, target.path);
    let text: string;
    try {
      const directory =
        target.isFile === undefined ? (await files.stat(resolved)).isDirectory : !target.isFile;
      if (directory) {
        if (!recursive) stderr += `grep: ${target.path}: Is a directory\n`;
        continue;
      }
      text = await files.readFile(resolved);
    } catch (error) {
      if (!(error instanceof Error) || !/ENOENT/.test(error.message)) throw new Fallback();
      stderr += `grep: ${target.path}: No such file or directory\n`;
      failed = true;
      continue;
    }
    const found = search(ctx, text, plan, withNames ? target.path : "");
    if (found.matched) {
      matchedAny = true;
      if (quiet) return { stdout: "", stderr: "", exitCode: 0 };
      if (listMatches) stdout += `${target.path}\n`;
      else if (!listMisses) stdout += found.output;
    } else if (listMisses) stdout += `${target.path}\n`;
    else if (count && !listMatches) stdout += found.output;
  }
  const exitCode = failed ? 2 : matchedAny ? 0 : 1;
  return quiet ? { stdout: "", stderr: "", exitCode } : { stdout, stderr, exitCode };
}

/**
 * ASCII output is handed on as bytes: the same string either way, but the shell then skips
 * re-encoding and re-measuring it as UTF-8 on its way through a pipe.
 */
function asciiAsBytes(result: Result): ExecResult {
  if (NON_ASCII.test(result.stdout)) return result;
  return { ...result, ...bytesOutput(unsafeBytesFromLatin1(result.stdout)) };
}

/** Any character above U+007F; output without one is ASCII. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * `grep` over `files` (the shell's file system), answered here for literal patterns and by
 * the bundled grep otherwise. The fast path reads `files` directly rather than through the
 * context's capability wrapper, which copies every result (each directory entry, each file)
 * for untrusted extension code: this is host code that only reads (PT14). It is built per
 * file system for that reason.
 */
export function literalGrep(files: GrepFiles) {
  return defineCommand(
    "grep",
    async (args, ctx) => {
      const original = ctx.origCommand;
      const plan = fastGrepPlan(args);
      if (original === undefined) throw new Error("grep: the bundled grep is not registered");
      if (plan === null) return original(args);
      try {
        return asciiAsBytes(await fastGrep(ctx, files, plan));
      } catch (error) {
        if (error instanceof Fallback) return original(args);
        throw error;
      }
    },
    { trusted: true },
  );
}
