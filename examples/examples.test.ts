/**
 * Every library example runs to completion and prints what its README snippet
 * promises. Examples that need a model get testkit's scripted OpenAI-compatible
 * upstream through OPENAI_BASE_URL, as a reader would point them at their own.
 */
import { readdirSync } from "node:fs";
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EXAMPLE_CASES, modelEnv } from "./example-cases.js";
import { runExample } from "./run-example.js";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gpt-4o-mini"] });
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

describe("library examples", () => {
  it.each(EXAMPLE_CASES)("$job: $title", async (example) => {
    for (const reply of example.replies ?? []) upstream.enqueue(reply);
    const run = await runExample(example.job, modelEnv(upstream));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    example.check(run.stdout, upstream);
  });

  it("covers every example folder", () => {
    const folders = readdirSync(new URL(".", import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== "node_modules")
      .map((entry) => entry.name);
    expect(EXAMPLE_CASES.map((example) => example.job).sort()).toEqual(folders.sort());
  });
});
