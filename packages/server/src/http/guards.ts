/** Reusable role and plan checks, used as route middleware. */
import { billingRequired, forbidden, type Plan, planAllows, type Role, roleAllows } from "@groundwork/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.js";

const ROLE_WORDS: Record<Role, string> = {
  viewer: "Viewer",
  member: "Member or Admin",
  admin: "Admin",
};

/** Viewer reads, Member creates and updates, Admin deletes (spec document 1, Authentication). */
export function requireRole(role: Role): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // c.get, not c.var: every c.var access builds an object of all the request's variables.
    const principal = c.get("principal");
    if (!roleAllows(principal.role, role)) {
      throw forbidden(`This operation needs the ${ROLE_WORDS[role]} role; the API key has ${principal.role}`);
    }
    await next();
  };
}

/** Features such as BYOK need at least the given plan; otherwise 402. */
export function requirePlan(plan: Plan, feature: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!planAllows(c.var.principal.plan, plan)) {
      throw billingRequired(
        `${feature} needs the ${plan} plan or higher; the organization is on the ${c.var.principal.plan} plan`,
      );
    }
    await next();
  };
}
