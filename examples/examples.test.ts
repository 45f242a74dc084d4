/**
 * Every library example runs to completion and prints what its README snippet
 * promises. Examples that need a model get testkit's scripted OpenAI-compatible
 * upstream through OPENAI_BASE_URL, as a reader would point them at their own.
 */
import { startOpenAIUpstream, type Upstream } from "@groundwork/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runExample } from "./run-example.js";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startOpenAIUpstream({ models: ["gpt-4o-mini"] });
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

const modelEnv = () => ({ OPENAI_BASE_URL: upstream.url, OPENAI_API_KEY: "sk-example" });

describe("library examples", () => {
  it("convert: HTML to Markdown", async () => {
    const run = await runExample("convert");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("# Quarterly report");
    expect(run.stdout).toContain("Revenue grew 12%");
    expect(run.stdout).toMatch(/[-*] EMEA/);
  });

  it("chat: a completion through the organization's own provider", async () => {
    upstream.enqueue({ text: "Bonjour !" });
    const run = await runExample("chat", modelEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Bonjour !");
    expect(upstream.requests.at(-1)?.body).toMatchObject({ model: "gpt-4o-mini" });
  });

  it("extract: structured output and a report grounded in the text", async () => {
    upstream.enqueue({
      text: JSON.stringify({ invoiceNumber: "INV-2024-001", vendor: "Acme GmbH", total: 120.5 }),
    });
    const run = await runExample("extract", modelEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("COMPLETED");
    expect(run.stdout).toMatch(/invoiceNumber exact_match/);
    expect(run.stdout).toMatch(/vendor exact_match/);
  });

  it("score: the report of a structured output without a model", async () => {
    const run = await runExample("score");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^0 1 \{ score: 1, basis: 'exact_match'/);
  });

  it("server: the /v1 API as a fetch handler", async () => {
    const run = await runExample("server");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^200 \{\s+object: 'list'/);
  });

  it("agent: a relayed tool call answered by the app, then the final answer", async () => {
    upstream.enqueue({ toolCalls: [{ name: "get_weather", arguments: JSON.stringify({ city: "Paris" }) }] });
    upstream.enqueue({ text: "It is 18 °C in Paris." });
    const run = await runExample("agent", modelEnv());
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("completed It is 18 °C in Paris.");
    const continued = JSON.stringify(upstream.requests.at(-1)?.body);
    expect(continued).toContain('\\"celsius\\":18');
  });

  it("knowledge-base: ingest offline, search, resolve the citation", async () => {
    const run = await runExample("knowledge-base");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^leave\.md \[ 'Leave' \] true ".*30 days of paid leave/);
  });
});
