// Chats through an organization's own provider (an OpenAI-compatible endpoint) with the gateway.
// From the repository root, after a build: OPENAI_API_KEY=sk-... node --import tsx examples/chat/index.ts
// (OPENAI_BASE_URL points it at another OpenAI-compatible server; CI points it at testkit's scripted upstream.)
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({
  store: openStore({ file: ":memory:", secret: "a-long-random-master-secret" }),
});
const me = await groundwork.principal("acme"); // an organization, created on first use
await groundwork.providers.create(me.organizationId, {
  name: "openai",
  provider: "HOSTED_A", // OpenAI-compatible: its models are addressed as hosted-a/<model>
  config: { baseUrl: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1" },
  apiKey: process.env.OPENAI_API_KEY ?? "",
});
const completion = await groundwork.gateway.chat(
  { model: "hosted-a/gpt-4o-mini", messages: [{ role: "user", content: "Say hello in French." }] },
  { principal: me },
);
console.log(completion.choices[0]?.message.content, completion.usage);
// #endregion readme
