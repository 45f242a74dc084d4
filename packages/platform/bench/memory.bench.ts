/**
 * Memory view of a 100 KB file (target < 2 ms) through `groundwork.memory.read`,
 * beside the floor it stands on: a raw prepared SELECT of the same row's content
 * from the same SQLite connection. The ratio is the service's own cost (path checks,
 * line counting for the range, the metadata copy).
 * Run: pnpm bench (or npx vitest bench --run --project platform after a build).
 */
import { openStore } from "@groundwork/store-sqlite";
import { bench, describe } from "vitest";
import { createGroundwork } from "../src/create-groundwork.js";

const store = openStore({ file: ":memory:" });
const groundwork = createGroundwork({ store });
const org = await groundwork.principal("bench", "member");
const member = {
  ...org,
  apiKeyId: (await store.apiKeys.create({ organizationId: org.organizationId, role: "member" })).record.id,
};
const line = "A remembered fact about the user, kept as one line of a memory file.\n";
const content = line.repeat(Math.floor(100_000 / line.length));
await groundwork.memory.write(member, { command: "create", path: "/memories/notes/big.md", content });

const raw = store.db.prepare(
  "SELECT content FROM memory_files WHERE organization_id = ? AND member_id = ? AND path = ?",
);

describe(`memory view of a ${content.length}-byte file`, () => {
  bench("groundwork.memory.read (whole file)", async () => {
    await groundwork.memory.read(member, { path: "/memories/notes/big.md" });
  });

  bench("groundwork.memory.read (lines 500-600)", async () => {
    await groundwork.memory.read(member, { path: "/memories/notes/big.md", startLine: 500, endLine: 600 });
  });

  bench("baseline: raw SQLite SELECT of the same content", () => {
    raw.get(org.organizationId, member.apiKeyId, "/memories/notes/big.md");
  });
});
