// Runs the Groundwork API in-process on a temporary database and calls it without a socket.
// From the repository root: node --import tsx examples/server-in-process.ts
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "@groundwork/server";
import { openStore } from "@groundwork/store-sqlite";

const store = openStore({ file: join(mkdtempSync(join(tmpdir(), "groundwork-example-")), "groundwork.db") });
const organization = store.organizations.ensure("acme", "team").organization;
const { key } = store.apiKeys.create({ organizationId: organization.id, role: "viewer" });
const app = createApp({ store });

const health = await app.request("/health");
console.log("GET /health →", health.status, await health.json());

const anonymous = await app.request("/v1/schemas");
console.log("GET /v1/schemas without a key →", anonymous.status);

const viewer = await app.request("/v1/schemas", { headers: { Authorization: `Bearer ${key}` } });
console.log("GET /v1/schemas as a viewer →", viewer.status, await viewer.json());

store.close();
