/**
 * Billing (PLATFORM.md §15), every endpoint for every role: the caller's tier, all tiers,
 * the limits with their counters, availability of one resource and a check of an amount.
 * The rules live in the observability billing ledger and the platform's billing service.
 */
import { billingCheckBody } from "@groundwork/platform";
import type { Hono } from "hono";
import { readBody } from "../../http/body.js";
import type { AppEnv } from "../../http/env.js";
import { renderCheck, renderLimit, renderTier } from "./render.js";

export function registerBillingRoutes(app: Hono<AppEnv>): void {
  app.get("/v1/billing/tier", (c) => c.json(renderTier(c.var.groundwork.billing.tier(c.var.principal))));

  app.get("/v1/billing/tiers", (c) =>
    c.json(c.var.groundwork.billing.tiers().map(({ plan, name, limits }) => ({ plan, name, limits }))),
  );

  app.get("/v1/billing/limits", async (c) => {
    const { plan, limits } = await c.var.groundwork.billing.limits(c.var.principal);
    return c.json({ plan, limits: limits.map(renderLimit) });
  });

  app.get("/v1/billing/available", async (c) =>
    c.json(await c.var.groundwork.billing.available(c.var.principal, c.req.query())),
  );

  app.post("/v1/billing/check", async (c) => {
    const body = await readBody(c, billingCheckBody);
    return c.json(renderCheck(await c.var.groundwork.billing.check(c.var.principal, body)));
  });
}
