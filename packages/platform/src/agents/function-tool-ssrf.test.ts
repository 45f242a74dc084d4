/**
 * Function tools reach only public addresses unless private networks are allowed:
 * the connection itself refuses a private address (DNS rebinding: the first lookup,
 * mocked here, says public; the connection's real lookup says loopback), and every
 * redirect is checked again before it is followed.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ResolvedTool, RunState, ToolCallInput } from "@groundwork/agents";
import type { Principal } from "@groundwork/core";
import type { Store } from "@groundwork/store-sqlite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("node:dns/promises", async (original) => {
  const real = await original<typeof import("node:dns/promises")>();
  return {
    ...real,
    lookup: async (host: string, options: object) =>
      host === "localhost" || host === "public.example"
        ? [{ address: "93.184.216.34", family: 4 }]
        : real.lookup(host, options as never),
  };
});

const { ServerToolExecutor } = await import("./tool-executor.js");

let hits = 0;
const server = createServer((_, res) => {
  hits++;
  res.end("secret from the private network");
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const principal: Principal = {
  organizationId: "org_1",
  organizationName: "acme",
  plan: "enterprise",
  role: "member",
  apiKeyId: "",
};

function executor(options: { allowPrivateNetwork: boolean; fetch?: typeof fetch }) {
  return new ServerToolExecutor({} as Store, {} as never, principal, {
    ...options,
    allowPrivateNetworkSetting: "ALLOW_IT",
    functionTimeoutMs: 5_000,
    now: () => 0,
  });
}

function call(endpoint: string): ToolCallInput {
  const definition = { type: "function", name: "lookup", endpoint };
  return {
    tool: { name: "lookup", definition } as unknown as ResolvedTool,
    callId: "call_1",
    arguments: "{}",
    state: { id: "resp_1", conversationId: "conv_1", agentId: "agt_1", citations: [] } as unknown as RunState,
  };
}

describe("function tools and private networks", () => {
  it("refuses an endpoint whose connection-time address is private although the first lookup was public", async () => {
    hits = 0;
    const result = await executor({ allowPrivateNetwork: false }).execute(call(`http://localhost:${port}/`));
    expect(result.failed).toBe(true);
    expect(result.output).toMatch(/localhost resolves to (127\.0\.0\.1|::1).*refused unless ALLOW_IT/);
    expect(hits).toBe(0);
  });

  it("calls the same endpoint when private networks are allowed", async () => {
    const result = await executor({ allowPrivateNetwork: true }).execute(call(`http://localhost:${port}/`));
    expect(result).toEqual({ output: "secret from the private network" });
  });

  it("checks every redirect before following it", async () => {
    const seen: string[] = [];
    const fetchStub: typeof fetch = async (input) => {
      seen.push(String(input));
      return new Response(null, { status: 307, headers: { location: `http://127.0.0.1:${port}/inner` } });
    };
    const result = await executor({ allowPrivateNetwork: false, fetch: fetchStub }).execute(
      call("http://public.example/hook"),
    );
    expect(result.failed).toBe(true);
    expect(result.output).toMatch(/127\.0\.0\.1 resolves to 127\.0\.0\.1.*refused unless ALLOW_IT/);
    expect(seen).toEqual(["http://public.example/hook"]);
  });

  it("follows a redirect to a public address, keeping POST on 307 and the body on the same origin only", async () => {
    const seen: Array<{ url: string; method: string | undefined; body: unknown }> = [];
    const fetchStub: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), method: init?.method, body: init?.body });
      return seen.length === 1
        ? new Response(null, { status: 307, headers: { location: "http://public.example/v2" } })
        : new Response("done");
    };
    const result = await executor({ allowPrivateNetwork: false, fetch: fetchStub }).execute(
      call("http://public.example/v1"),
    );
    expect(result).toEqual({ output: "done" });
    expect(seen.map((s) => [s.url, s.method])).toEqual([
      ["http://public.example/v1", "POST"],
      ["http://public.example/v2", "POST"],
    ]);
    expect(typeof seen[1]?.body).toBe("string");
  });
});
