/**
 * What each library example needs and must print: the replies its scripted model
 * gives (for the examples that call one) and checks on its output. Shared by the
 * in-repository run (examples.test.ts) and the run from packed tarballs
 * (packages/platform/test/packed-install.test.ts), so both hold the examples to
 * the same promises.
 */
import type { CompletionReply, ErrorReply, Upstream } from "@groundwork/testkit";
import { expect } from "vitest";

export interface ExampleCase {
  job: string;
  title: string;
  /** Replies the scripted OpenAI-compatible upstream gives, in order; absent: no model is called. */
  replies?: Array<CompletionReply | ErrorReply>;
  check(stdout: string, upstream: Upstream): void;
}

export const EXAMPLE_CASES: readonly ExampleCase[] = [
  {
    job: "convert",
    title: "HTML to Markdown",
    check(stdout) {
      expect(stdout).toContain("# Quarterly report");
      expect(stdout).toContain("Revenue grew 12%");
      expect(stdout).toMatch(/[-*] EMEA/);
    },
  },
  {
    job: "chat",
    title: "a completion through the organization's own provider",
    replies: [{ text: "Bonjour !" }],
    check(stdout, upstream) {
      expect(stdout).toContain("Bonjour !");
      expect(upstream.requests.at(-1)?.body).toMatchObject({ model: "gpt-4o-mini" });
    },
  },
  {
    job: "extract",
    title: "structured output and a report grounded in the text",
    replies: [{ text: JSON.stringify({ invoiceNumber: "INV-2024-001", vendor: "Acme GmbH", total: 120.5 }) }],
    check(stdout) {
      expect(stdout).toContain("COMPLETED");
      expect(stdout).toMatch(/invoiceNumber exact_match/);
      expect(stdout).toMatch(/vendor exact_match/);
    },
  },
  {
    job: "knowledge-base",
    title: "ingest offline, search, resolve the citation",
    check(stdout) {
      expect(stdout).toMatch(/^leave\.md \[ 'Leave' \] true ".*30 days of paid leave/);
    },
  },
  {
    job: "agent",
    title: "a relayed tool call answered by the app, then the final answer",
    replies: [
      { toolCalls: [{ name: "get_weather", arguments: JSON.stringify({ city: "Paris" }) }] },
      { text: "It is 18 °C in Paris." },
    ],
    check(stdout, upstream) {
      expect(stdout).toContain("completed It is 18 °C in Paris.");
      expect(JSON.stringify(upstream.requests.at(-1)?.body)).toContain('\\"celsius\\":18');
    },
  },
  {
    job: "memory",
    title: "an agent's relayed memory tool answered from the member's own memory",
    replies: [
      {
        toolCalls: [
          {
            name: "memory",
            arguments: JSON.stringify({
              command: "create",
              path: "/memories/user.md",
              content: "Prefers tea.\n",
            }),
          },
        ],
      },
      {
        toolCalls: [
          { name: "memory", arguments: JSON.stringify({ command: "view", path: "/memories/user.md" }) },
        ],
      },
      { text: "Noted: tea it is." },
    ],
    check(stdout, upstream) {
      expect(stdout).toContain("completed Noted: tea it is. [ '/memories/user.md 13B' ]");
      expect(JSON.stringify(upstream.requests.at(-1)?.body)).toContain("Prefers tea.");
    },
  },
  {
    job: "conversations",
    title: "an agent's turns kept in a conversation, its items read back, a paused turn cancelled",
    replies: [{ text: "It ships tomorrow." }, { toolCalls: [{ name: "refund", arguments: "{}" }] }],
    check(stdout) {
      expect(stdout).toContain("completed requires_approval paused");
      expect(stdout).toContain("status: 'cancelled'");
      expect(stdout).toContain("previousStatus: 'requires_approval'");
      expect(stdout).toContain("message message message function_call approval_request");
    },
  },
  {
    job: "scores",
    title: "a human score and an API score on a conversation, listed",
    check(stdout) {
      expect(stdout).toContain("2 [ 'resolved=true (API)', 'helpfulness=4 (HUMAN)' ]");
    },
  },
  {
    job: "analytics",
    title: "usage of two chat calls (one refused) and an embedding call, summarized",
    replies: [{ text: "Bonjour !" }, { kind: "error", status: 404, message: "The model does not exist" }],
    check(stdout) {
      expect(stdout).toContain("refused 400 upstream_error");
      expect(stdout).toContain("3 1 0.33 true");
      expect(stdout).toContain("[ 'hosted-a:2', 'builtin:1' ]");
      expect(stdout).toContain("[ '400 upstream_error x1' ]");
      expect(stdout).toContain("hour 3");
    },
  },
  {
    job: "billing",
    title: "a Free organization's tier, a refused check, and a stored file counted",
    check(stdout) {
      expect(stdout).toContain("Free 1000 false");
      expect(stdout).toContain("pages_exhausted");
      expect(stdout).toContain("\nfalse\n");
      expect(stdout).toContain(`storage_bytes 20 ${1024 ** 3 - 20}`);
    },
  },
  {
    job: "annotation-queues",
    title: "two reviewers claim different items; one is scored and completed",
    check(stdout) {
      expect(stdout).toContain("2 1 reviewer-alice reviewer-bob true");
      expect(stdout).toContain("COMPLETED 2 { pending: 1, completed: 1 }");
    },
  },
  {
    job: "tracing",
    title: "a gateway call traced and read back with its span tree",
    replies: [{ text: "Bonjour !", usage: { inputTokens: 5, outputTokens: 2 } }],
    check(stdout) {
      expect(stdout).toContain("gateway chat hosted-a/gpt-4o-mini ok 5+2 tokens");
      expect(stdout).toContain("[ 'chat hosted-a/gpt-4o-mini via hosted-a' ]");
    },
  },
  {
    job: "evaluators",
    title: "extraction outputs scored against expected outputs with field_accuracy and exact_match",
    check(stdout) {
      expect(stdout).toContain("0 field_accuracy 1.00 (3/3 fields match) exact_match 1");
      expect(stdout).toContain("1 field_accuracy 0.67 (2/3 fields match; mismatched: /total) exact_match 0");
    },
  },
  {
    job: "datasets",
    title: "items added in a batch, a frozen version that later edits do not change",
    check(stdout) {
      expect(stdout).toContain("3 v1 3 2");
      expect(stdout).toContain("[ 'Settings → Security → Reset', 'Yes, under Billing', null ]");
      expect(stdout).toContain("[ 'Yes, under Billing', 'To 30 countries' ]");
    },
  },
  {
    job: "prompts",
    title: "a prompt version under a label, compiled with the request's values",
    check(stdout) {
      expect(stdout).toContain("[ 'company', 'question' ] 2");
      expect(stdout).toContain("You answer for Acme, briefly and kindly.");
      expect(stdout).toContain("Where is my parcel?");
    },
  },
  {
    job: "experiments",
    title: "two prompt versions run over a frozen dataset, the regressed items of the second",
    // No replies queued: the scripted model echoes each compiled prompt, so v2 (which names the
    // category, not the product) loses the product name on the kettle and the lamp.
    check(stdout, upstream) {
      expect(stdout).toContain("regressed: [ 'Acme Kettle', 'Acme Lamp' ]");
      expect(stdout).toContain("{ improved: 0, regressed: 2, unchanged: 1, missing: 0 }");
      expect(stdout).toContain("v1 { 'names-product': 1 } 0");
      expect(stdout).toMatch(/v2 \{ 'names-product': 0\.333\d* \} 2/);
      expect(upstream.requests).toHaveLength(6);
    },
  },
  {
    job: "skills",
    title: "a skill imported from a file map, labelled, and resolved by name@label",
    check(stdout) {
      expect(stdout).toContain("created versioned production=v1 latest=v2");
    },
  },
  {
    job: "plugins",
    title: "a plugin zip built in memory, installed, then updated (a new skill version, the agent unchanged)",
    check(stdout) {
      expect(stdout).toContain("[ 'release-kit:release-notes' ] [ 'writer' ]");
      expect(stdout).toContain("1.1.0 [ 'release-kit:release-notes' ] [ 'writer' ]");
    },
  },
  {
    job: "score",
    title: "the report of a structured output without a model",
    check(stdout) {
      expect(stdout).toMatch(/^0 1 \{ score: 1, basis: 'exact_match'/);
    },
  },
  {
    job: "server",
    title: "the /v1 API as a fetch handler",
    check(stdout) {
      expect(stdout).toMatch(/^200 \{\s+object: 'list'/);
    },
  },
];

/** The environment an example reads to find its model (a reader's own OpenAI-compatible endpoint). */
export function modelEnv(upstream: Upstream): Record<string, string> {
  return { OPENAI_BASE_URL: upstream.url, OPENAI_API_KEY: "sk-example" };
}
