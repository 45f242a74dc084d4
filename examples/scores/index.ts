// Scores a conversation by hand (no model needed): a human rating and a yes/no from the app, then lists them.
// From the repository root, after a build: node --import tsx examples/scores/index.ts
// #region readme
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";

const groundwork = createGroundwork({ store: openStore({ file: ":memory:" }) });
const org = await groundwork.principal("acme");
const conversation = await groundwork.conversations.create(org, {
  title: "Refund request",
  items: [{ type: "message", role: "user", content: "Where is my refund?" }],
});
const subject = { subjectType: "conversation", subjectId: conversation.id } as const;
// A reviewer's rating (source HUMAN by default) and the app's own check (source API).
await groundwork.scores.record(org, {
  ...subject,
  name: "helpfulness",
  dataType: "NUMERIC",
  value: 4,
  comment: "polite",
});
await groundwork.scores.record(org, {
  ...subject,
  name: "resolved",
  dataType: "BOOLEAN",
  value: true,
  source: "API",
});
const { items, total } = await groundwork.scores.list(
  org,
  { subjectId: conversation.id },
  { page: 0, size: 20 },
);
console.log(
  total,
  items.map((score) => `${score.name}=${score.value} (${score.source})`),
);
// #endregion readme
await groundwork.close();
