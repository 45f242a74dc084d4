/** Roles and plans of an organization's callers (spec document 1, Authentication). */

export const ROLES = ["viewer", "member", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const PLANS = ["free", "team", "business", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

/** Viewer reads, Member also creates and updates, Admin also deletes: each role includes the ones before it. */
export function roleAllows(actual: Role, required: Role): boolean {
  return ROLES.indexOf(actual) >= ROLES.indexOf(required);
}

/** Plans are ordered; a feature available on a plan is available on every later one. */
export function planAllows(actual: Plan, required: Plan): boolean {
  return PLANS.indexOf(actual) >= PLANS.indexOf(required);
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function isPlan(value: unknown): value is Plan {
  return typeof value === "string" && (PLANS as readonly string[]).includes(value);
}

/** The caller of a request, established by authentication. Every query is scoped by `organizationId`. */
export interface Principal {
  organizationId: string;
  organizationName: string;
  plan: Plan;
  role: Role;
  apiKeyId: string;
}
