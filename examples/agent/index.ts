// Runs an agent whose tool runs in the app: the run pauses with the call, the app answers it, the run finishes.
// From the repository root, after a build: OPENAI_API_KEY=sk-... node --import tsx examples/agent/index.ts
// (the agent's built-in model goes to OPENAI_BASE_URL; CI points it at testkit's scripted upstream.)
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({
  store: openStore({ file: ":memory:", secret: "a-long-random-master-secret" }),
  config: {
    builtin: {
      baseUrl: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
      apiKey: process.env.OPENAI_API_KEY ?? "",
    },
  },
});
const me = await groundwork.principal("acme");
await groundwork.agentManagement.apply(me, {
  name: "weather",
  model: "gpt-4o-mini",
  instructions: "Answer with the weather tool.",
  // A named tool without an endpoint is relayed: the run pauses and the app answers it.
  tools: [{ name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } }],
});
let run = await groundwork.agents.respond(me, { model: "agent/weather", input: "Weather in Paris?" });
while (run.status === "requires_tool_output") {
  const input = run.pendingToolCalls.map((call) => ({
    type: "function_call_output" as const,
    call_id: call.callId,
    output: JSON.stringify({ city: JSON.parse(call.arguments).city, celsius: 18 }),
  }));
  run = await groundwork.agents.respond(me, { model: "agent/weather", previous_response_id: run.id, input });
}
console.log(run.status, run.text);
// #endregion readme
