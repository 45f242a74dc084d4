// Keeps an app's prompts as versioned templates: create one, ship a new version under a label,
// compile what the label serves with the request's values. No server, no model.
// From the repository root, after a build: node --import tsx examples/prompts/index.ts
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({ store: openStore({ file: ":memory:" }) });
const org = (await groundwork.principal("acme")).organizationId;
await groundwork.prompts.create(org, {
  name: "support/reply",
  type: "chat",
  prompt: [
    { role: "system", content: "You answer for {{company}}." },
    { role: "user", content: "{{question}}" },
  ],
  config: { model: "gpt-4o-mini", temperature: 0.2 },
});
// Versions are immutable; a label names the one the app serves.
const v2 = await groundwork.prompts.createVersion(org, "support/reply", {
  prompt: [
    { role: "system", content: "You answer for {{company}}, briefly and kindly." },
    { role: "user", content: "{{question}}" },
  ],
  changeDescription: "shorter answers",
  labels: ["production"],
});
const { versionNumber, compiled } = await groundwork.prompts.compile(org, "support/reply", {
  label: "production",
  variables: { company: "Acme", question: "Where is my parcel?" },
});
console.log(v2.variables, versionNumber, compiled);
// #endregion readme
