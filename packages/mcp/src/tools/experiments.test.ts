/**
 * The 17 experiment tools of PLATFORM.md §11 through an MCP client: each calls its endpoint
 * with the path ids, body and query the table gives (the API is a recording fetch here; the
 * endpoints themselves are tested in the server's experiment routes).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { createMcpServer } from "../server.js";
import { experimentTools } from "./experiments.js";

interface Sent {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

async function connect() {
  const sent: Sent[] = [];
  const api: typeof fetch = async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const text = typeof init?.body === "string" ? init.body : "";
    sent.push({
      method: init?.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: text === "" ? undefined : JSON.parse(text),
    });
    if (init?.method === "DELETE") return new Response(null, { status: 204 });
    const answer = url.pathname.endsWith("/variants") && init?.method !== "POST" ? [] : { id: "x" };
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  const server = createMcpServer({ apiKey: "k", baseUrl: "https://api.example.com", fetch: api });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return { client, sent };
}

const E = "/v1/experiments/exp_1";

describe("experiment tools", () => {
  it("registers the 17 tools of §11 and maps each to its endpoint", async () => {
    const { client, sent } = await connect();
    const { tools } = await client.listTools();
    const listed = new Set(tools.map((tool) => tool.name));
    for (const tool of tools.filter((candidate) =>
      experimentTools.some((t) => `svc_${t.name}` === candidate.name),
    )) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(properties))
        expect(schema.description, `${tool.name}.${name}`).toBeTruthy();
    }
    const names = experimentTools.map((tool) => `svc_${tool.name}`);
    for (const name of names) expect(listed.has(name), name).toBe(true);
    expect(names.sort()).toEqual(
      [
        "svc_list_experiments",
        "svc_get_experiment",
        "svc_create_experiment",
        "svc_update_experiment",
        "svc_delete_experiment",
        "svc_add_variant",
        "svc_get_variants",
        "svc_update_variant",
        "svc_delete_variant",
        "svc_run_experiment",
        "svc_get_experiment_runs",
        "svc_get_run",
        "svc_set_baseline",
        "svc_clear_baseline",
        "svc_get_run_results",
        "svc_get_run_regression",
        "svc_get_experiment_comparison",
      ].sort(),
    );
    const calls: Array<[string, Record<string, unknown>, Omit<Sent, "query" | "body"> & Partial<Sent>]> = [
      [
        "svc_list_experiments",
        { datasetId: "ds_1", page: 1 },
        { method: "GET", path: "/v1/experiments", query: { datasetId: "ds_1", page: "1" } },
      ],
      ["svc_get_experiment", { experimentId: "exp_1" }, { method: "GET", path: E }],
      [
        "svc_create_experiment",
        { name: "n", datasetId: "ds_1", evaluators: [{ type: "exact_match" }] },
        {
          method: "POST",
          path: "/v1/experiments",
          body: { name: "n", datasetId: "ds_1", evaluators: [{ type: "exact_match" }] },
        },
      ],
      [
        "svc_update_experiment",
        { experimentId: "exp_1", description: "d" },
        { method: "PATCH", path: E, body: { description: "d" } },
      ],
      ["svc_delete_experiment", { experimentId: "exp_1" }, { method: "DELETE", path: E }],
      [
        "svc_add_variant",
        { experimentId: "exp_1", name: "v", kind: "model", model: "m", params: { temperature: 0 } },
        {
          method: "POST",
          path: `${E}/variants`,
          body: { name: "v", kind: "model", model: "m", params: { temperature: 0 } },
        },
      ],
      ["svc_get_variants", { experimentId: "exp_1" }, { method: "GET", path: `${E}/variants` }],
      [
        "svc_update_variant",
        { experimentId: "exp_1", variantId: "var_1", name: "w" },
        { method: "PATCH", path: `${E}/variants/var_1`, body: { name: "w" } },
      ],
      [
        "svc_delete_variant",
        { experimentId: "exp_1", variantId: "var_1" },
        { method: "DELETE", path: `${E}/variants/var_1` },
      ],
      [
        "svc_run_experiment",
        { experimentId: "exp_1", variantIds: ["var_1"] },
        { method: "POST", path: `${E}/runs`, body: { variantIds: ["var_1"] } },
      ],
      [
        "svc_get_experiment_runs",
        { experimentId: "exp_1", status: "completed" },
        { method: "GET", path: `${E}/runs`, query: { status: "completed" } },
      ],
      [
        "svc_get_run",
        { experimentId: "exp_1", runId: "xrun_1" },
        { method: "GET", path: `${E}/runs/xrun_1` },
      ],
      [
        "svc_set_baseline",
        { experimentId: "exp_1", runId: "xrun_1" },
        { method: "PUT", path: `${E}/baseline`, body: { runId: "xrun_1" } },
      ],
      ["svc_clear_baseline", { experimentId: "exp_1" }, { method: "DELETE", path: `${E}/baseline` }],
      [
        "svc_get_run_results",
        { experimentId: "exp_1", runId: "xrun_1", status: "failed", size: 5 },
        { method: "GET", path: `${E}/runs/xrun_1/results`, query: { status: "failed", size: "5" } },
      ],
      [
        "svc_get_run_regression",
        { experimentId: "exp_1", runId: "xrun_1", baselineRunId: "xrun_0", threshold: 0.1 },
        {
          method: "GET",
          path: `${E}/runs/xrun_1/regression`,
          query: { baselineRunId: "xrun_0", threshold: "0.1" },
        },
      ],
      [
        "svc_get_experiment_comparison",
        { experimentId: "exp_1", runIds: ["xrun_0", "xrun_1"] },
        { method: "GET", path: `${E}/comparison`, query: { runIds: "xrun_0,xrun_1" } },
      ],
    ];
    for (const [name, args, expected] of calls) {
      const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean };
      expect(result.isError, name).toBeFalsy();
      expect(sent.at(-1), name).toMatchObject({ query: {}, ...expected });
    }
    await client.close();
  });
});
