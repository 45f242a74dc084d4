/**
 * The SSE writer under the Node listener (HP52): the events of a tick leave as one chunk, so
 * what the client reads must still be every event, in order, whatever the pace on either side:
 * a client that reads slower than the events come (the writer waits for the socket to drain),
 * events that arrive one per tick or many at once, an error after the first event, and a
 * client that goes away (the items stop).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import fc from "fast-check";
import { Hono } from "hono";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "../../http/env.js";
import { sse } from "./sse.js";

let server: Server;
let url: string;
const agent = new Agent({ connections: 4 });
/** What the next request streams: the events and where (if anywhere) it fails. */
let plan: { events: string[]; failAt: number | null; tickEvery: number } = {
  events: [],
  failAt: null,
  tickEvery: 1,
};
let stopped = false;

async function* items(events: string[], failAt: number | null, tickEvery: number) {
  try {
    for (let i = 0; i < events.length; i++) {
      if (i === failAt) throw new Error("upstream broke");
      // Some events come in the same tick, some after a turn of the event loop.
      if (i % tickEvery === 0) await new Promise((resolve) => setImmediate(resolve));
      yield { i, text: events[i] };
    }
  } finally {
    stopped = true;
  }
}

beforeAll(async () => {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("requestId", "req-sse");
    await next();
  });
  app.get("/events", (c) => sse(c, items(plan.events, plan.failAt, plan.tickEvery), { done: true }));
  server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }) as Server;
  await new Promise((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await agent.close();
  await new Promise((resolve) => server.close(resolve));
});

const expected = (events: string[], failAt: number | null) => {
  const sent = failAt === null ? events : events.slice(0, failAt);
  const body = sent.map((text, i) => `data: ${JSON.stringify({ i, text })}\n\n`).join("");
  return failAt === null ? `${body}data: [DONE]\n\n` : body;
};

describe("sse under the Node listener", () => {
  it("delivers every event in order, to slow and fast clients, errors included", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 30 }),
        fc.option(fc.nat(30), { nil: null }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        async (events, failAt, tickEvery, slow) => {
          plan = { events, failAt: failAt !== null && failAt < events.length ? failAt : null, tickEvery };
          const response = await request(`${url}/events`, { dispatcher: agent });
          expect(response.headers["x-request-id"]).toBe("req-sse");
          expect(response.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
          let body = "";
          for await (const chunk of response.body) {
            body += chunk.toString();
            if (slow) await new Promise((resolve) => setTimeout(resolve, 1));
          }
          const text = plan.failAt === null ? body : body.slice(0, body.lastIndexOf('data: {"error"'));
          expect(text).toBe(expected(plan.events, plan.failAt));
          if (plan.failAt !== null) expect(body.slice(text.length)).toMatch(/^data: \{"error":\{.*\}\}\n\n$/);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("waits for a client that does not read, and sends everything once it does", async () => {
    // About 8 MB: far more than the socket buffers hold, so the writer must wait for drain.
    const big = "x".repeat(64 * 1024);
    plan = { events: Array.from({ length: 128 }, () => big), failAt: null, tickEvery: 4 };
    const response = await request(`${url}/events`, { dispatcher: agent });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const body = await response.body.text();
    expect(body).toBe(expected(plan.events, null));
  });

  it("stops the items when the client goes away", async () => {
    plan = { events: Array.from({ length: 10_000 }, (_, i) => `event ${i}`), failAt: null, tickEvery: 1 };
    stopped = false;
    const response = await request(`${url}/events`, { dispatcher: agent });
    for await (const _ of response.body) break;
    response.body.destroy();
    await expect.poll(() => stopped, { timeout: 5_000 }).toBe(true);
  });
});
