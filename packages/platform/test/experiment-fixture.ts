/**
 * Shared by the experiment tests: a scripted model that answers from the last user message
 * (`good-*` models answer every item right, `bad-*` models only the even ones), and a dataset
 * of `count` items `q<i>` → expected `a<i>` with a frozen version.
 */
import type { Principal } from "@groundwork/core";
import type { JsonValue, Reply } from "@groundwork/testkit";
import type { Groundwork } from "../src/create-groundwork.js";

function lastUser(body: JsonValue | undefined): string {
  const messages =
    (body as { messages?: Array<{ role: string; content: unknown }> } | undefined)?.messages ?? [];
  const last = [...messages].reverse().find((message) => message.role === "user");
  return typeof last?.content === "string" ? last.content : "";
}

/** The upstream's handler: `q7` → `a7` for good models; bad models get odd items wrong. */
export function answeringModel(request: { body: JsonValue | undefined }): Reply {
  const model = String((request.body as { model?: unknown } | undefined)?.model ?? "");
  const question = lastUser(request.body);
  const match = /q(\d+)/.exec(question);
  const index = match === null ? -1 : Number(match[1]);
  const right = model.startsWith("good") || index % 2 === 0;
  return {
    text: right && index >= 0 ? `a${index}` : `wrong ${question}`,
    usage: { inputTokens: 10, outputTokens: 2 },
  };
}

export async function seedDataset(groundwork: Groundwork, principal: Principal, count: number, name = "qa") {
  const dataset = await groundwork.datasets.create(principal, { name });
  for (let start = 0; start < count; start += 1000) {
    const items = Array.from({ length: Math.min(1000, count - start) }, (_, offset) => ({
      input: `q${start + offset}`,
      expectedOutput: `a${start + offset}`,
    }));
    await groundwork.datasets.addItems(principal, dataset.id, { items });
  }
  const version = await groundwork.datasets.createVersion(principal, dataset.id);
  return { dataset, version };
}
