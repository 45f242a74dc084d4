/** The literal `grep` fast path (PT13) answers exactly what the bundled grep answers. */
import fc from "fast-check";
import { Bash, InMemoryFs } from "just-bash";
import { describe, expect, it } from "vitest";
import { fastGrepPlan, literalGrep } from "./bash-grep.js";

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

const word = fc.constantFrom("x", "ab", "a b", "Xy", "é", "--", "-x", "ab.c", "", "\r", "日", "a:b");
const text = fc
  .array(
    fc.array(word, { maxLength: 5 }).map((w) => w.join("")),
    { maxLength: 6 },
  )
  .chain((lines) => fc.constantFrom("", "\n").map((end) => lines.join("\n") + end));
const name = fc.constantFrom("a.txt", "b", ".hidden", "d/c.txt", "d/e/f", "d/.g/h", "z z");
const tree = fc.dictionary(name, text, { maxKeys: 6 });
const flag = fc.constantFrom(
  "-r",
  "-R",
  "-n",
  "-c",
  "-l",
  "-L",
  "-h",
  "-v",
  "-q",
  "-F",
  "-E",
  "-rn",
  "-cv",
  "--count",
  "-i",
  "-w",
);
const pattern = fc.constantFrom("x", "ab", "a b", "é", "-x", "a:b", "ab.c", "a.b", "Xy", "zz", "\\x", "^a");
const operand = fc.constantFrom(".", "a.txt", "b", "d", "d/e", "missing", "z z", "/workspace", "-", "*.txt");

async function run(files: Record<string, string>, command: string, fast: boolean) {
  const fs = new InMemoryFs();
  fs.mkdirSync("/workspace", { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    const full = `/workspace/${path}`;
    fs.mkdirSync(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    fs.writeFileSync(full, new TextEncoder().encode(content));
  }
  const bash = new Bash({
    fs,
    commands: ["grep", "echo", "cat", "wc", "head", "tr"],
    cwd: "/workspace",
    executionLimitProfile: "hardened",
    ...(fast ? { customCommands: [literalGrep(fs)] } : {}),
  });
  const { stdout, stderr, exitCode } = await bash.exec(command);
  return { stdout, stderr, exitCode };
}

describe("literal grep", () => {
  it("plans only literal patterns over named operands", () => {
    expect(fastGrepPlan(["-rn", "x", "/workspace"])).not.toBeNull();
    expect(fastGrepPlan(["-r", "a.b", "/workspace"])).toBeNull();
    expect(fastGrepPlan(["-i", "x", "f"])).toBeNull();
    expect(fastGrepPlan(["x"])).toBeNull();
    expect(fastGrepPlan(["x", "*.txt"])).toBeNull();
    expect(fastGrepPlan(["-e", "x", "-e", "y", "f"])).toBeNull();
  });

  it("gives the bundled grep's stdout, stderr and exit code", async () => {
    await fc.assert(
      fc.asyncProperty(
        tree,
        fc.array(flag, { maxLength: 3 }),
        fc.boolean(),
        pattern,
        fc.array(operand, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(
          "",
          " | cat",
          " | wc -c",
          " | head -c 7",
          " > /o; cat /o",
          "; echo $?",
          " | tr a-z A-Z",
        ),
        async (files, flags, viaE, pat, operands, then) => {
          const patternArgs = viaE ? ["-e", quote(pat)] : [quote(pat)];
          const command = `grep ${[...flags, ...patternArgs, ...operands.map(quote)].join(" ")}${then}`;
          const fast = await run(files, command, true);
          const bundled = await run(files, command, false);
          expect(fast, command).toEqual(bundled);
        },
      ),
      { numRuns: 300 },
    );
  });
});
