import { GroundworkError } from "@groundwork/core";
import { createApp } from "@groundwork/server";
import { openStore } from "@groundwork/store-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { GroundworkClient } from "./client.js";

// The real server as a fetch handler: the client's requests go through auth, validation and routing.
const store = openStore({ file: ":memory:", secret: "client-test-master-secret" });
const org = store.organizations.create("acme", "team");
const { key } = store.apiKeys.create({ organizationId: org.id, role: "admin" });
const app = createApp({ store });
const inProcess = ((input: URL | string | Request, init?: RequestInit) =>
  app.request(input, init)) as typeof fetch;
const client = new GroundworkClient({ baseUrl: "http://groundwork.test/v1/", apiKey: key, fetch: inProcess });
afterAll(() => store.close());

describe("GroundworkClient", () => {
  it("sends JSON bodies and reads JSON answers", async () => {
    const created = await client.schemas.create({ name: "invoice" });
    expect(created).toMatchObject({ name: "invoice" });
    const page = await client.schemas.list({ search: "inv", size: 5 });
    expect(page).toMatchObject({ page: 0, size: 5, totalElements: 1 });
  });

  it("turns the error envelope into a GroundworkError with status, type, code and param", async () => {
    const error = (await client.providers
      .create({ name: "x", provider: "HOSTED_A", config: {} })
      .catch((e: unknown) => e)) as GroundworkError;
    expect(error).toBeInstanceOf(GroundworkError);
    expect(error).toMatchObject({ status: 400, type: "invalid_request_error", param: "apiKey" });
    expect(error.message).toMatch(/apiKey is required/);
  });

  it("reports a bare status (no envelope) with an http_<status> code", async () => {
    const anonymous = new GroundworkClient({
      baseUrl: "http://groundwork.test",
      apiKey: "",
      fetch: inProcess,
    });
    const error = (await anonymous.models.list().catch((e: unknown) => e)) as GroundworkError;
    expect(error).toMatchObject({ status: 401, code: "http_401" });
  });

  it("answers 204 as undefined and embeds in-process models", async () => {
    const embedded = await client.embeddings.create({ model: "hash-embedding-1536", input: "a b" });
    expect((embedded.data as unknown[]).length).toBe(1);
    const created = await client.schemas.create({ name: "temp" });
    expect(await client.schemas.delete(created.id as string)).toBeUndefined();
  });

  it("registers a connector, connects, allows and reads the connection (tokens never come back)", async () => {
    // Private networks are refused by default: a public-looking name that is never called.
    const created = await client.connectors.create({
      serverLabel: "docs",
      url: "https://mcp.example.com/mcp",
      authKind: "bearer",
      agentIds: null,
    });
    expect(created).toMatchObject({ serverLabel: "docs", host: "mcp.example.com", agentIds: null });
    const id = created.id as string;
    expect(await client.connectors.update(id, { description: "Docs" })).toMatchObject({
      description: "Docs",
    });
    expect((await client.connectors.list()).totalElements).toBe(1);
    const connected = await client.connectors.connect(id, "tok-123");
    expect(connected).toMatchObject({ status: "connected" });
    expect(JSON.stringify(await client.connectors.connection(id))).not.toContain("tok-123");
    const error = (await client.connectors
      .allow(id, "agt_missing")
      .catch((e: unknown) => e)) as GroundworkError;
    expect(error).toMatchObject({ status: 404, param: "agentId" });
    expect(await client.connectors.disconnect(id)).toBeUndefined();
    const missing = (await client.connectorInputs
      .get("inp_missing")
      .catch((e: unknown) => e)) as GroundworkError;
    expect(missing.status).toBe(404);
    expect(await client.connectors.delete(id)).toBeUndefined();
  });
});
