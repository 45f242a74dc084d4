/** Properties of the memory rules: no accepted path leaves the tree; edits do what they say. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { memoryPathProblem, movedPath } from "./memory-paths.js";
import { insertLines, lineCount, lineRange, replaceOnce } from "./memory-text.js";

/** Pieces an attacker would combine: traversal, separators, encodings, odd characters. */
const piece = fc.constantFrom(
  "/memories",
  "/memories/",
  "/",
  "//",
  "..",
  ".",
  "\\",
  "%2e%2e",
  "%2f",
  " ",
  "a",
  "notes.md",
  "\u0000",
  "~",
  "/etc/passwd",
  "memories",
  "\u2215",
  "\uFF0E\uFF0E",
);
const candidate = fc.oneof(
  fc.array(piece, { maxLength: 12 }).map((parts) => parts.join("")),
  fc.string({ maxLength: 80 }).map((s) => `/memories/${s}`),
  fc.string({ maxLength: 80 }),
);

/** What a file system would make of the path: `.`/`..` resolved, empty segments dropped. */
function resolved(path: string): string {
  const out: string[] = [];
  for (const segment of path.split(/[/\\]/)) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return `/${out.join("/")}`;
}

const text = fc.string({ maxLength: 200, unit: fc.constantFrom("a", "b", "\n", "x", "é") });

describe("memory path properties", () => {
  it("every accepted path stays below /memories, has no traversal and is its own resolution", () => {
    fc.assert(
      fc.property(candidate, (path) => {
        if (memoryPathProblem(path, false) !== null) return;
        expect(path.startsWith("/memories/")).toBe(true);
        expect(path.split("/")).not.toContain("..");
        expect(path.split("/")).not.toContain(".");
        expect(path).not.toContain("\\");
        expect(path).not.toContain("\u0000");
        expect(resolved(path)).toBe(path);
      }),
      { numRuns: 5000 },
    );
  });

  it("a valid path moved between valid directories stays inside the tree", () => {
    const seg = fc.stringMatching(/^[a-z0-9._-]{1,6}$/).filter((s) => s !== "." && s !== "..");
    const dir = fc.array(seg, { minLength: 1, maxLength: 3 }).map((s) => `/memories/${s.join("/")}`);
    fc.assert(
      fc.property(dir, dir, fc.array(seg, { maxLength: 3 }), (from, to, rest) => {
        const moved = movedPath([from, ...rest].join("/"), from, to);
        expect(moved.startsWith(`${to}`)).toBe(true);
        expect(resolved(moved)).toBe(moved);
      }),
    );
  });
});

describe("memory text properties", () => {
  it("reading the whole file gives back what was written", () => {
    fc.assert(
      fc.property(text, (content) => {
        expect(lineRange(content).content).toBe(content);
      }),
    );
  });

  it("the line ranges of a file put together are the file", () => {
    fc.assert(
      fc.property(text, (content) => {
        const total = lineCount(content);
        const parts = Array.from({ length: total }, (_, i) => lineRange(content, i + 1, i + 1).content);
        expect(parts.join("")).toBe(content);
      }),
    );
  });

  it("str_replace changes exactly one occurrence", () => {
    fc.assert(
      fc.property(text, fc.string({ minLength: 1, maxLength: 5 }), text, (before, marker, after) => {
        const unique = `<<${marker}>>`;
        fc.pre(!before.includes("<<") && !after.includes("<<"));
        const replaced = replaceOnce(before + unique + after, unique, "Z");
        expect(replaced).toBe(`${before}Z${after}`);
      }),
    );
  });

  it("insert adds exactly the inserted lines and keeps the rest", () => {
    fc.assert(
      fc.property(text, text, fc.nat(), (content, inserted, at) => {
        const total = lineCount(content);
        const line = at % (total + 1);
        const result = insertLines(content, line, inserted);
        const added = lineCount(inserted);
        expect(lineCount(result)).toBe(total + added);
        if (added > 0) {
          expect(lineRange(result, line + 1, line + added).content).toBe(
            inserted.endsWith("\n") ? inserted : `${inserted}\n`,
          );
        }
      }),
    );
  });
});
