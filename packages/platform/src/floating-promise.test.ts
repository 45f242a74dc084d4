import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const fixture = "packages/platform/test/fixtures/floating-store-call.ts";

function floatingIn(path: string): number[] {
  let output: string;
  try {
    output = execFileSync(
      "npx",
      ["biome", "lint", "--only=nursery/noFloatingPromises", "--reporter=github", "--colors=off", path],
      { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? "");
  }
  return [...output.matchAll(/line=(\d+)/g)].map((match) => Number(match[1]));
}

// biome.json turns noFloatingPromises on for platform, server and mcp sources (issue #24: every store
// call awaited); this shows the rule sees a dropped `T | Promise<T>` answer, not only a Promise.
describe("the floating-promise check", () => {
  it("flags store answers that are neither awaited nor voided", () => {
    expect(floatingIn(fixture)).toEqual([13, 14]);
  }, 120_000);
});
