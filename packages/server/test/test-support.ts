/** Builds an in-memory store with one organization and keys of every role, for HTTP tests. */
import type { Plan, Role } from "@groundwork/core";
import { openStore, type Store } from "@groundwork/store-sqlite";

export interface TestTenant {
  store: Store;
  keys: Record<Role, string>;
  organizationId: string;
  keyFor(role: Role, plan: Plan): string;
}

export function createTestTenant(plan: Plan = "enterprise"): TestTenant {
  const store = openStore({ file: ":memory:", secret: "test-master-secret-for-credentials" });
  const organization = store.organizations.create("acme", plan);
  const make = (organizationId: string, role: Role) => store.apiKeys.create({ organizationId, role }).key;
  return {
    store,
    organizationId: organization.id,
    keys: {
      viewer: make(organization.id, "viewer"),
      member: make(organization.id, "member"),
      admin: make(organization.id, "admin"),
    },
    keyFor(role, otherPlan) {
      const other = store.organizations.ensure(`org-${otherPlan}`, otherPlan).organization;
      return make(other.id, role);
    },
  };
}

export function bearer(key: string): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}

/** A response body as tests read it: the error envelope when there is one, any other fields as they are. */
export interface TestBody {
  error: { message: string; type: string; param: string | null; code: string };
  [field: string]: unknown;
}

export async function bodyOf(response: Response): Promise<TestBody> {
  return (await response.json()) as TestBody;
}
