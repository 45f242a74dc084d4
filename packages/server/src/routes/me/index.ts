/** `GET /v1/me` (PLATFORM.md §1.1, "Member identity"): the calling key, for any role. */
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env.js";

export function registerMeRoutes(app: Hono<AppEnv>): void {
  app.get("/v1/me", (c) => {
    const { apiKeyId, organizationId, role, plan } = c.var.principal;
    return c.json({ keyId: apiKeyId, organizationId, role, plan });
  });
}
