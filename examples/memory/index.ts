// Gives an agent a memory of its user: a relayed `memory` tool that the app answers from the user's own memory.
// From the repository root, after a build: OPENAI_API_KEY=sk-... node --import tsx examples/memory/index.ts
// (the agent's built-in model goes to OPENAI_BASE_URL; CI points it at testkit's scripted upstream.)
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({
  store: openStore({ file: ":memory:" }),
  config: {
    builtin: {
      baseUrl: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
      apiKey: process.env.OPENAI_API_KEY ?? "",
    },
  },
});
const org = await groundwork.principal("acme");
// Memory belongs to a member, and a member is an API key: give each user of the app one.
const { record } = await groundwork.store.apiKeys.create({
  organizationId: org.organizationId,
  role: "member",
});
const ada = { ...org, role: record.role, apiKeyId: record.id };
await groundwork.agentManagement.apply(org, {
  name: "assistant",
  model: "gpt-4o-mini",
  instructions: "Keep what you learn about the user in /memories; view it before answering.",
  // Runs have no built-in memory tool: a relayed named tool, answered below from the user's memory.
  tools: [
    {
      name: "memory",
      description: "view, create, str_replace, insert or rename a file under /memories",
      parameters: { type: "object", properties: { command: { type: "string" }, path: { type: "string" } } },
    },
  ],
});
async function memoryTool(args: { command: string; path: string }): Promise<unknown> {
  try {
    if (args.command === "view") return await groundwork.memory.read(ada, { path: args.path });
    return await groundwork.memory.write(ada, args as Parameters<typeof groundwork.memory.write>[1]);
  } catch (error) {
    return { error: (error as Error).message }; // the model reads the refusal and can correct itself
  }
}
let run = await groundwork.agents.respond(ada, { model: "agent/assistant", input: "I prefer tea." });
while (run.status === "requires_tool_output") {
  const input = run.pendingToolCalls.map((call) => ({
    type: "function_call_output" as const,
    call_id: call.callId,
    output: JSON.stringify(memoryTool(JSON.parse(call.arguments))),
  }));
  run = await groundwork.agents.respond(ada, {
    model: "agent/assistant",
    previous_response_id: run.id,
    input,
  });
}
const files = (await groundwork.memory.list(ada, { page: { page: 0, size: 20 } })).items;
console.log(
  run.status,
  run.text,
  files.map((file) => `${file.path} ${file.size}B`),
);
// #endregion readme
