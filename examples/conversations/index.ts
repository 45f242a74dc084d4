// Keeps an agent's turns in a conversation, reads its items back, and cancels a turn paused for approval.
// From the repository root, after a build: OPENAI_API_KEY=sk-... node --import tsx examples/conversations/index.ts
// (the agent's built-in model goes to OPENAI_BASE_URL; CI points it at testkit's scripted upstream.)
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = await createGroundwork({
  store: openStore({ file: ":memory:" }),
  config: {
    builtin: {
      baseUrl: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
      apiKey: process.env.OPENAI_API_KEY ?? "",
    },
  },
}).start(); // the workers close pauses nobody answers within the pause window
const org = await groundwork.principal("acme");
const { agent } = await groundwork.agentManagement.apply(org, {
  name: "support",
  model: "gpt-4o-mini",
  tools: [{ name: "refund", annotations: { readOnlyHint: false, destructiveHint: false } }],
  hitlPolicy: { version: 1, classes: { write: "approve" } }, // refunds wait for a human
});
const conversation = await groundwork.conversations.create(org, { agentId: agent.id, title: "Order 7" });
const ask = async (input: string) =>
  await groundwork.agents.respond(org, { model: "agent/support", conversation: conversation.id, input });
const answer = await ask("Where is order 7?");
const paused = await ask("Refund it, please.");
console.log(answer.status, paused.status, (await groundwork.conversations.get(org, conversation.id)).status);
console.log(await groundwork.conversations.cancel(org, conversation.id, { reason: "handled by phone" }));
const { items } = await groundwork.conversations.items(
  org,
  conversation.id,
  { order: "asc" },
  { page: 0, size: 20 },
);
console.log(items.map((item) => item.type).join(" "));
await groundwork.close();
// #endregion readme
