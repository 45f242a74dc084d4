/**
 * `requestHeader` reads a header from Node's raw list instead of the web Headers object the
 * first `c.req.header` call builds (HP15): over a real socket, for any list of headers (repeated,
 * in any letter case), it answers exactly what `c.req.header` answers.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import fc from "fast-check";
import { Hono } from "hono";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "./env.js";
import { requestHeader } from "./node-request.js";

const NAMES = ["authorization", "x-request-id", "x-a"];
let server: Server;
let url: string;
const agent = new Agent({ connections: 1 });

beforeAll(async () => {
  const app = new Hono<AppEnv>();
  app.get("/headers", (c) => {
    // Ours first: c.req.header builds the Headers object ours avoids.
    const ours = NAMES.map((name) => requestHeader(c, name) ?? null);
    const theirs = NAMES.map((name) => c.req.header(name) ?? null);
    return c.json({ ours, theirs });
  });
  server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }) as Server;
  await new Promise((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await agent.close();
  await new Promise((resolve) => server.close(resolve));
});

describe("requestHeader", () => {
  it("answers what c.req.header answers, repeats and letter case included", async () => {
    const value = fc.stringMatching(/^[!-~]([ !-~]{0,12}[!-~])?$/);
    const name = fc
      .constantFrom(...NAMES)
      .chain((lower) =>
        fc.constantFrom(lower, lower.toUpperCase(), lower[0]?.toUpperCase() + lower.slice(1)),
      );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(name, value), { maxLength: 6 }), async (headers) => {
        const response = await request(`${url}/headers`, {
          dispatcher: agent,
          headers: headers.flat(),
        });
        const body = (await response.body.json()) as { ours: unknown[]; theirs: unknown[] };
        expect(body.ours).toEqual(body.theirs);
      }),
      { numRuns: 150 },
    );
  });
});
