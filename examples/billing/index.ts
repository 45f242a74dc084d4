// Reads a Free organization's tier and limits, checks amounts against them, and sees a stored file counted.
// From the repository root, after a build: node --import tsx examples/billing/index.ts
// #region readme
import { createGroundwork, storePlanAllowance } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const store = openStore({ file: ":memory:" });
// The plan allowance enforces the tiers (402/429 refusals); without one a library user is unlimited.
const groundwork = createGroundwork({ store, allowance: storePlanAllowance(store) });
await store.organizations.ensure("acme", "free");
const org = await groundwork.principal("acme", "viewer");

const tier = groundwork.billing.tier(org);
console.log(tier.name, tier.limits.pages, tier.limits.byok);
console.log((await groundwork.billing.check(org, { resource: "pages", amount: 1500 })).reason);
console.log((await groundwork.billing.available(org, { resource: "byok" })).available);

await groundwork.files.upload(org, {
  filename: "notes.txt",
  purpose: "user_data",
  content: new TextEncoder().encode("Refunds take 5 days."),
});
for (const { resource, used, remaining } of (await groundwork.billing.limits(org)).limits) {
  if (resource === "storage_bytes") console.log(resource, used, remaining);
}
// #endregion readme
await groundwork.close();
await store.close();
