/** The `wc -l` fast path (PT14) answers exactly what the bundled wc answers. */
import fc from "fast-check";
import { Bash, InMemoryFs } from "just-bash";
import { describe, expect, it } from "vitest";
import { countNewlines, isStdinLineCount, lineCountWc } from "./bash-wc.js";

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

const piece = fc.constantFrom("x", "a b", "\n", "\n\n", "\r\n", "é", "日本", "\t", "", " ");
const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
const args = fc.constantFrom(
  "-l",
  "--lines",
  "",
  "-w",
  "-c",
  "-m",
  "-l -w",
  "-lw",
  "-l f",
  "-l -",
  "f",
  "-L",
);

async function run(content: string, command: string, fast: boolean) {
  const fs = new InMemoryFs();
  fs.mkdirSync("/workspace", { recursive: true });
  fs.writeFileSync("/workspace/f", new TextEncoder().encode(content));
  const bash = new Bash({
    fs,
    commands: ["wc", "cat", "printf", "echo"],
    cwd: "/workspace",
    executionLimitProfile: "hardened",
    ...(fast ? { customCommands: [lineCountWc] } : {}),
  });
  const { stdout, stderr, exitCode } = await bash.exec(command);
  return { stdout, stderr, exitCode };
}

describe("wc -l of standard input", () => {
  it("answers only `wc -l` / `wc --lines` without operands", () => {
    expect(isStdinLineCount(["-l"])).toBe(true);
    expect(isStdinLineCount(["--lines"])).toBe(true);
    expect(isStdinLineCount([])).toBe(false);
    expect(isStdinLineCount(["-l", "f"])).toBe(false);
    expect(isStdinLineCount(["-lw"])).toBe(false);
    expect(countNewlines("a\nb\n\n")).toBe(3);
    expect(countNewlines("")).toBe(0);
  });

  it("gives the bundled wc's stdout, stderr and exit code", async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        args,
        fc.constantFrom("cat f", "printf '%s' " as const),
        async (content, a, source) => {
          const producer = source === "cat f" ? "cat f" : `printf '%s' ${quote(content)}`;
          const command = `${producer} | wc ${a}`;
          const fast = await run(content, command, true);
          const bundled = await run(content, command, false);
          expect(fast, command).toEqual(bundled);
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);
});
