// Traces a gateway call: the organization's tracing settings, then the call's trace read back with its span tree.
// From the repository root, after a build: OPENAI_API_KEY=sk-... node --import tsx examples/tracing/index.ts
// (OPENAI_BASE_URL points it at another OpenAI-compatible server; CI points it at testkit's scripted upstream.)
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({
  store: openStore({ file: ":memory:", secret: "a-long-random-master-secret" }),
});
const admin = await groundwork.principal("acme", "admin");
await groundwork.providers.create(admin.organizationId, {
  name: "openai",
  provider: "HOSTED_A",
  config: { baseUrl: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1" },
  apiKey: process.env.OPENAI_API_KEY ?? "",
});
// Every trace kept for 7 days; prompts and completions stay out of traces unless captureContent is true.
await groundwork.tracing.updateSettings(admin, { samplingRate: 1, retentionDays: 7, captureContent: false });
await groundwork.gateway.chat(
  { model: "hosted-a/gpt-4o-mini", messages: [{ role: "user", content: "Say hello in French." }] },
  { principal: admin },
);
const { items } = await groundwork.tracing.listTraces(admin, { kind: "gateway" }, { page: 0, size: 20 });
const trace = await groundwork.tracing.getTrace(admin, items[0]?.id ?? "");
console.log(trace.kind, trace.name, trace.status, `${trace.inputTokens}+${trace.outputTokens} tokens`);
console.log(trace.spans.map((span) => `${span.name} via ${span.attributes["gen_ai.provider.name"]}`));
// #endregion readme
await groundwork.close();
