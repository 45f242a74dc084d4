// Runs the whole /v1 API in-process as a fetch handler and calls it without a socket.
// From the repository root: node --import tsx examples/server/index.ts
// #region readme
import { createApp } from "@groundwork/server";
import { openStore } from "@groundwork/store-sqlite";

const store = openStore({ file: ":memory:", secret: "a-long-random-master-secret" });
const org = (await store.organizations.ensure("acme", "team")).organization;
const { key } = await store.apiKeys.create({ organizationId: org.id, role: "member" });
const app = createApp({ store });
const res = await app.request("/v1/models", { headers: { Authorization: `Bearer ${key}` } });
console.log(res.status, await res.json());
// #endregion readme
