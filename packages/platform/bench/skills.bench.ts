/**
 * Resolving an agent's 20 skill bindings (target p50 < 2 ms) through
 * `groundwork.skills.agentSkills` (agent version lookup, binding parse, one name
 * lookup and one label or number lookup per binding), beside the floor: 20 raw
 * prepared SELECTs of a skill row by qualified name on the same connection. 50 skills
 * (10 of them plugin skills), 3 versions each, a `production` label on each.
 * Run: pnpm bench (or npx vitest bench --run --project platform after a build).
 */
import { skillPackageFromFiles } from "@groundwork/agents";
import { openStore } from "@groundwork/store-sqlite";
import { bench, describe } from "vitest";
import { createGroundwork } from "../src/create-groundwork.js";

const store = openStore({ file: ":memory:" });
const groundwork = createGroundwork({ store });
const org = await groundwork.principal("bench", "member");
const names = Array.from({ length: 50 }, (_, i) => `skill-${i}`);
for (const [i, name] of names.entries()) {
  for (let v = 1; v <= 3; v++) {
    const files = { "SKILL.md": `---\nname: ${name}\ndescription: Skill ${i} v${v}\n---\nDo step ${v}.\n` };
    const pkg = skillPackageFromFiles(files);
    await groundwork.skills.commitPackage(org.organizationId, pkg, {
      namespace: i < 10 ? "kit" : null,
      pluginId: i < 10 ? "plg_bench" : null,
      source: i < 10 ? "plugin" : "import",
    });
  }
  const qualified = i < 10 ? `kit:${name}` : name;
  await groundwork.skills.createLabel(org.organizationId, qualified, "production", "2");
}
const bindings = names.slice(0, 20).map((name, i) => {
  if (i % 4 === 0) return { name, ref: "production" };
  if (i % 4 === 1) return { name, ref: "1" };
  return { name };
});
const agent = await groundwork.agentManagement.apply(org, {
  name: "bench-agent",
  model: "openai/gpt-4o-mini",
  instructions: "bench",
  skills: bindings.slice(0, 10),
  tools: [
    {
      type: "platform.skill",
      skills: bindings.slice(10).map((b) => (b.ref === undefined ? b.name : `${b.name}@${b.ref}`)),
    },
  ],
});
const agentId = agent.agent.id;
const check = await groundwork.skills.agentSkills(org, agentId);
if (check.skills.length !== 20 || check.skills.some((s) => s.status !== "resolved")) {
  throw new Error(`bench setup: ${JSON.stringify(check.skills.map((s) => s.status))}`);
}

const raw = store.db.prepare("SELECT * FROM skills WHERE organization_id = ? AND qualified_name = ?");
const qualifiedNames = names.slice(0, 20).map((name, i) => (i < 10 ? `kit:${name}` : name));

describe("resolving an agent's 20 skill bindings", () => {
  bench("groundwork.skills.agentSkills (20 bindings)", async () => {
    await groundwork.skills.agentSkills(org, agentId);
  });

  bench("baseline: 20 raw prepared SELECTs by qualified name", () => {
    for (const name of qualifiedNames) raw.get(org.organizationId, name);
  });
});
