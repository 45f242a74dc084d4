/**
 * Conversation items at 10,000 conversations × 50 items (500,000 rows): appending one
 * turn's items (6: input, call, output, approval request and response, answer; target
 * < 1 ms) and listing 20 items through `groundwork.conversations.items` (target < 5 ms),
 * each beside a raw prepared SQLite statement doing the same rows on the same connection.
 * Run: pnpm bench (or npx vitest bench --run --project platform after a build).
 */
import { openStore } from "@groundwork/store-sqlite";
import { bench, describe } from "vitest";
import { createGroundwork } from "../src/create-groundwork.js";

const CONVERSATIONS = 10_000;
const ITEMS = 50;

const store = openStore({ file: ":memory:" });
const groundwork = createGroundwork({ store });
const principal = await groundwork.principal("bench", "member");
const org = principal.organizationId;
const ids: string[] = [];
const data = JSON.stringify({
  role: "user",
  content: [{ type: "input_text", text: "A user message of a turn." }],
});
store.db.transaction(() => {
  const conversation = store.db.prepare(
    "INSERT INTO agent_conversations (id, organization_id, agent_id, mode, created_at, updated_at) VALUES (?, ?, NULL, 'ask', 0, 0)",
  );
  const item = store.db.prepare(
    "INSERT INTO conversation_items (id, conversation_id, response_id, position, type, data, created_at) VALUES (?, ?, NULL, ?, 'message', ?, 0)",
  );
  for (let c = 0; c < CONVERSATIONS; c++) {
    const id = `conv_bench${String(c).padStart(16, "0")}`;
    ids.push(id);
    conversation.run(id, org);
    for (let p = 0; p < ITEMS; p++) item.run(`item_${c}_${p}`, id, p, data);
  }
})();

const turn = [
  { type: "message", data: { role: "user", content: [{ type: "input_text", text: "refund order 7" }] } },
  { type: "function_call", data: { callId: "c1", name: "refund", arguments: "{}", status: "completed" } },
  { type: "function_call_output", data: { callId: "c1", output: "refunded", failed: false } },
  { type: "approval_request", data: { approvalId: "apr_1", callId: "c2", name: "close", arguments: "{}" } },
  { type: "approval_response", data: { approvalId: "apr_1", approve: true, reason: null } },
  { type: "message", data: { role: "assistant", content: [{ type: "output_text", text: "Done." }] } },
];
let n = 0;
const next = () => ids[n++ % CONVERSATIONS] as string;

const rawMax = store.db.prepare(
  "SELECT coalesce(max(position), -1) + 1 AS n FROM conversation_items WHERE conversation_id = ?",
);
const rawInsert = store.db.prepare(
  "INSERT INTO conversation_items (id, conversation_id, response_id, position, type, data, created_at) VALUES (?, ?, 'resp_x', ?, ?, ?, 0)",
);
let raw = 0;
const rawAppend = store.db.transaction((id: string) => {
  let position = (rawMax.get(id) as { n: number }).n;
  for (const item of turn)
    rawInsert.run(`item_raw_${raw++}`, id, position++, item.type, JSON.stringify(item.data));
});
const rawList = store.db.prepare(
  "SELECT * FROM conversation_items WHERE conversation_id = ? ORDER BY position DESC LIMIT 20 OFFSET 0",
);

describe(`append one turn's ${turn.length} items (${CONVERSATIONS} conversations × ${ITEMS} items)`, () => {
  bench("store.conversations.appendItems", async () => {
    await store.conversations.appendItems(next(), "resp_bench", turn);
  });
  bench("baseline: raw SQLite INSERTs of the same rows in one transaction", () => {
    rawAppend(next());
  });
});

describe(`list 20 items of a conversation (${CONVERSATIONS} conversations × ${ITEMS}+ items)`, () => {
  bench("groundwork.conversations.items (page of 20, newest first)", async () => {
    await groundwork.conversations.items(principal, next(), {}, { page: 0, size: 20 });
  });
  bench("baseline: raw SQLite SELECT … LIMIT 20", () => {
    rawList.all(next());
  });
});
