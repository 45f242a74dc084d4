/**
 * The README's library snippets are the examples' `#region readme` blocks, word for
 * word: a snippet cannot drift from code that CI runs. Each example job must have
 * its snippet in the README, and every TypeScript block of the README's library
 * section must come from an example.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repositoryRoot } from "./run-example.js";

const REGION = /\/\/ #region readme\n([\s\S]*?)\/\/ #endregion readme/;

export function snippetOf(source: string): string | null {
  return REGION.exec(source)?.[1] ?? null;
}

const examplesDir = join(repositoryRoot, "examples");
const jobs = readdirSync(examplesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== "node_modules")
  .map((entry) => entry.name);
const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
const librarySection = readme.slice(
  readme.indexOf("## Use it as a library"),
  readme.indexOf("## MCP tool server"),
);
const fences = [...librarySection.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");

describe("README library snippets", () => {
  it.each(jobs)("examples/%s has a readme region that the README shows verbatim", (job) => {
    const snippet = snippetOf(readFileSync(join(examplesDir, job, "index.ts"), "utf8"));
    expect(snippet, `examples/${job}/index.ts has no #region readme`).not.toBeNull();
    expect(fences).toContain(snippet);
  });

  it("shows no TypeScript block in the library section that no example runs", () => {
    const snippets = jobs.map((job) => snippetOf(readFileSync(join(examplesDir, job, "index.ts"), "utf8")));
    for (const fence of fences) expect(snippets).toContain(fence);
  });

  it("finds a region so the checks above can fail", () => {
    expect(snippetOf("a\n// #region readme\nconst x = 1;\n// #endregion readme\n")).toBe("const x = 1;\n");
    expect(snippetOf("const x = 1;\n")).toBeNull();
  });
});
