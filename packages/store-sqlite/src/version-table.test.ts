/** The shared version bookkeeping, through the raw tables of two kinds: prompts (a `latest` label) and agents (none). */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LabelTable } from "./label-table.js";
import { openStore, type Store } from "./open-store.js";
import { statementCache } from "./statement-cache.js";
import { LATEST_LABEL, VersionTable } from "./version-table.js";

interface Row {
  id: string;
  version_number: number;
  active: number;
}

let store: Store;
let sql: ReturnType<typeof statementCache>;
let org: string;

beforeEach(() => {
  store = openStore({ file: ":memory:" });
  sql = statementCache(store.db);
  org = store.organizations.create("acme", "enterprise").id;
});
afterEach(() => store.close());

const toRecord = (row: Row) => ({ id: row.id, n: row.version_number, active: row.active === 1 });
const fields = {
  prompt: '"x"',
  config: "{}",
  variables: "[]",
  change_description: null,
  copied_from_version_id: null,
};

function promptTables() {
  const prompt = store.prompts.create(org, { name: "p", type: "text" });
  const labels = new LabelTable(
    sql,
    { now: () => 1 },
    {
      table: "prompt_labels",
      owner: "prompt_id",
      version: "prompt_version_id",
    },
  );
  const versions = new VersionTable(
    sql,
    { table: "prompt_versions", owner: "prompt_id", parent: "prompts" },
    toRecord,
    labels,
  );
  return { id: prompt?.id ?? "", labels, versions };
}

describe("VersionTable", () => {
  it("numbers from 1, keeps latest on the newest active version and soft-deletes", () => {
    const { id, versions } = promptTables();
    expect(versions.latestId(id)).toBeNull();
    expect(versions.insert(id, "v1", fields, 10)).toBe(1);
    expect(versions.insert(id, "v2", fields, 11)).toBe(2);
    expect(versions.latestId(id)).toBe("v2");
    expect(versions.deactivate(id, "v2", 12)).toBe(true);
    expect(versions.deactivate(id, "v2", 13)).toBe(false);
    expect(versions.latestId(id)).toBe("v1");
    expect(versions.byId("v2")).toEqual({ id: "v2", n: 2, active: false });
    expect(versions.byNumber(id, 1)).toEqual({ id: "v1", n: 1, active: true });
    expect(versions.numberOf("v2")).toBe(2);
    expect(versions.numberOf("nope")).toBeNull();
    expect(versions.deactivate(id, "v1", 14)).toBe(true);
    expect(versions.latestId(id)).toBeNull();
    // Numbers never reuse a deactivated version's.
    expect(versions.insert(id, "v3", fields, 15)).toBe(3);
    expect(versions.page(id, { page: 0, size: 2 })).toEqual({
      items: [
        { id: "v3", n: 3, active: true },
        { id: "v2", n: 2, active: false },
      ],
      total: 3,
    });
  });

  it("scopes lookups to the owner and its organization", () => {
    const { id, versions } = promptTables();
    versions.insert(id, "v1", fields, 10);
    expect(versions.get(id, "v1")?.id).toBe("v1");
    expect(versions.get("prm_other", "v1")).toBeNull();
    expect(versions.getInOrganization(org, id, "v1")?.id).toBe("v1");
    const other = store.organizations.create("globex", "enterprise").id;
    expect(versions.getInOrganization(other, id, "v1")).toBeNull();
  });

  it("without a label table touches no label and latest is the newest active version (agents)", () => {
    const created = store.agents.create(org, { name: "a", description: null, definition: {} });
    const agentId = created?.agent.id ?? "";
    const versions = new VersionTable(
      sql,
      { table: "agent_versions", owner: "agent_id", parent: "agents" },
      toRecord,
    );
    versions.insert(agentId, "agv_x", { definition: "{}", copied_from_version_id: null }, 10);
    // Without a label, latest is the newest active version itself.
    expect(versions.latestId(agentId)).toBe("agv_x");
    versions.deactivate(agentId, "agv_x", 11);
    expect(versions.latestId(agentId)).toBe(created?.version.id);
    expect(store.agents.listLabels(agentId).map((label) => label.name)).not.toContain(LATEST_LABEL);
  });
});
