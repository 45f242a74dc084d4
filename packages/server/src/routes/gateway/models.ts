import type { Gateway } from "@groundwork/gateway";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env.js";

export function registerModels(app: Hono<AppEnv>, gateway: Gateway): void {
  app.get("/v1/models", async (c) => c.json(await gateway.listModels(c.var.principal, c.req.raw.signal)));
}
