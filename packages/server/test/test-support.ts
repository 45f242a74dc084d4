/**
 * Builds a store with one organization and keys of every role, for HTTP tests: the store
 * `openTestStore` gives (SQLite in memory, or PostgreSQL with `GROUNDWORK_TEST_STORE=postgres`).
 */
import type { Plan, Role } from "@groundwork/core";
import type { PlatformStore } from "@groundwork/platform";
import { openTestStore } from "../../platform/test/test-store.js";

export {
  onPostgres,
  openTestDatabase,
  openTestStore,
  queryTestStore,
  type TestDatabase,
} from "../../platform/test/test-store.js";

export interface TestTenant {
  store: PlatformStore;
  keys: Record<Role, string>;
  organizationId: string;
  /** A key of `role` in another organization, the one of plan `plan` (created on first use). */
  keyFor(role: Role, plan: Plan): Promise<string>;
}

export async function createTestTenant(plan: Plan = "enterprise"): Promise<TestTenant> {
  const store = await openTestStore({ secret: "test-master-secret-for-credentials" });
  const organization = await store.organizations.create("acme", plan);
  const make = async (organizationId: string, role: Role) =>
    (await store.apiKeys.create({ organizationId, role })).key;
  return {
    store,
    organizationId: organization.id,
    keys: {
      viewer: await make(organization.id, "viewer"),
      member: await make(organization.id, "member"),
      admin: await make(organization.id, "admin"),
    },
    async keyFor(role, otherPlan) {
      const other = (await store.organizations.ensure(`org-${otherPlan}`, otherPlan)).organization;
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
