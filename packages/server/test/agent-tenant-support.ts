/**
 * The tenant of the conversation and stored-response tests: an app over a platform
 * whose built-in model is a scripted upstream, plus a Member of another
 * organization (`stranger`) and a second Member of the same one (`colleague`).
 */
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork, type Groundwork } from "@groundwork/platform";
import { type App, createApp } from "../src/app.js";
import { createTestTenant, type TestTenant } from "./test-support.js";

export interface AgentTenant {
  tenant: TestTenant;
  groundwork: Groundwork;
  app: App;
  stranger: string;
  colleague: string;
}

export async function agentTenant(upstreamUrl: string): Promise<AgentTenant> {
  const tenant = await createTestTenant();
  const groundwork = createGroundwork({
    store: tenant.store,
    config: { builtin: { baseUrl: upstreamUrl, apiKey: "k" } },
    fetch: createFastFetch(),
  });
  return {
    tenant,
    groundwork,
    app: createApp({ groundwork }),
    stranger: await tenant.keyFor("member", "enterprise"),
    colleague: (await tenant.store.apiKeys.create({ organizationId: tenant.organizationId, role: "member" }))
      .key,
  };
}
