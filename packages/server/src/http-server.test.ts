import { afterEach, describe, expect, it } from "vitest";
import { bearer, createTestTenant } from "../test/test-support.js";
import { createApp } from "./app.js";
import { listen } from "./http-server.js";

const tenant = await createTestTenant();
afterEach(() => undefined);

describe("Node listener over a real loopback socket", () => {
  it("serves the fetch handler, authenticates, and finishes in-flight requests on close", async () => {
    const app = createApp({ store: tenant.store });
    let release: () => void = () => {};
    const slowStarted = new Promise<void>((started) => {
      app.get("/v1/test/slow", async (c) => {
        started();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return c.json({ finished: true });
      });
    });
    const server = await listen(app, { host: "127.0.0.1", port: 0 });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/test/slow`)).status).toBe(401);

    const inFlight = fetch(`${server.url}/v1/test/slow`, { headers: bearer(tenant.keys.viewer) });
    await slowStarted;
    const closed = server.close(5_000);
    // New connections are refused while the in-flight request is still running.
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
    release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    await closed;
  });
});
