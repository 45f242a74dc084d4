import { afterEach, describe, expect, it } from "vitest";
import type { NewConnector } from "./connectors.js";
import { openStore, type Store } from "./open-store.js";

const SECRET = "a-master-secret-of-enough-length";
const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function setup() {
  const store = openStore({ file: ":memory:", secret: SECRET });
  opened.push(store);
  const org = store.organizations.create("acme", "team");
  const input: NewConnector = {
    serverLabel: "files",
    url: "https://mcp.example.com/mcp",
    host: "mcp.example.com",
    authKind: "bearer",
    description: null,
    agentIds: null,
    enabled: true,
    pluginId: null,
  };
  return { store, org, connector: store.connectors.create(org.id, input), input };
}

describe("ConnectorStore", () => {
  it("seals tokens with the connector and the member: a ciphertext moved to another member does not decrypt", () => {
    const { store, connector } = setup();
    store.connectors.connect(connector.id, "key_a", "tok-secret");
    expect(store.connectors.tokenOf(connector.id, "key_a")).toBe("tok-secret");
    const raw = JSON.stringify(store.db.prepare("SELECT * FROM connector_connections").all());
    expect(raw).not.toContain("tok-secret");
    store.db
      .prepare(
        "INSERT INTO connector_connections (connector_id, member_id, status, token_encrypted, connected_at) SELECT connector_id, 'key_b', status, token_encrypted, connected_at FROM connector_connections",
      )
      .run();
    expect(() => store.connectors.tokenOf(connector.id, "key_b")).toThrow();
  });

  it("a changed authKind drops connections; a changed url drops tool lists; allowances stay", () => {
    const { store, org, connector } = setup();
    store.connectors.connect(connector.id, "key_a", "t");
    store.connectors.allow(connector.id, "key_a", "agt_1", ["mcp.example.com"]);
    store.connectors.saveToolList(connector.id, "key_a", []);
    store.connectors.update(org.id, connector.id, {
      url: "https://other.example/mcp",
      host: "other.example",
    });
    expect(store.connectors.connection(connector.id, "key_a")?.status).toBe("connected");
    expect(store.connectors.toolList(connector.id, "key_a")).toBeNull();
    store.connectors.update(org.id, connector.id, { authKind: "oauth" });
    expect(store.connectors.connection(connector.id, "key_a")).toBeNull();
    expect(store.connectors.allowances(connector.id, "key_a")).toHaveLength(1);
  });

  it("deleting a connector removes its connections, allowances and tool lists; labels are unique per organization", () => {
    const { store, org, connector, input } = setup();
    store.connectors.connect(connector.id, "key_a", "t");
    store.connectors.allow(connector.id, "key_a", "agt_1", ["mcp.example.com"]);
    store.connectors.saveToolList(connector.id, "key_a", []);
    expect(() => store.connectors.create(org.id, input)).toThrow(/UNIQUE/);
    const other = store.organizations.create("other", "team");
    expect(store.connectors.create(other.id, input).serverLabel).toBe("files");
    expect(store.connectors.delete(org.id, connector.id)).toBe(true);
    for (const table of ["connector_connections", "connector_allowances", "connector_tool_lists"]) {
      expect(store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get(), table).toEqual({ n: 0 });
    }
  });

  it("input requests close once: the first answer wins", () => {
    const { store, org, connector } = setup();
    const input = store.connectors.createInput({
      organizationId: org.id,
      memberId: "key_a",
      responseId: "resp_1",
      connectorId: connector.id,
      serverLabel: "files",
      tool: "files__ask",
      callId: "c1",
      mode: "form",
      message: "Which?",
      requestedSchema: { type: "object", properties: {} },
      url: null,
      expiresAt: Date.now() + 1000,
    });
    expect(input).toMatchObject({ status: "open", answeredAt: null, action: null });
    expect(store.connectors.openInputs().map((i) => i.id)).toEqual([input.id]);
    expect(store.connectors.closeInput(input.id, "answered", { action: "accept", content: { a: 1 } })).toBe(
      true,
    );
    expect(store.connectors.closeInput(input.id, "cancelled", { action: "cancel", content: null })).toBe(
      false,
    );
    expect(store.connectors.getInput(org.id, input.id)).toMatchObject({
      status: "answered",
      action: "accept",
      content: { a: 1 },
    });
    expect(store.connectors.getInput("org_other", input.id)).toBeNull();
  });
});
