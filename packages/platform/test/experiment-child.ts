/**
 * The process the kill -9 test kills: opens the test's database, starts the platform's
 * background workers (so queued experiment runs execute here) and reports each result
 * count on stdout until it is killed. Argv: <database file or PostgreSQL URL> <upstream url>.
 */
import { createFastFetch } from "@groundwork/gateway";
import { createGroundwork } from "../src/create-groundwork.js";
import { openStoreAt } from "./store-at.js";

const [location, upstreamUrl] = process.argv.slice(2);
const store = await openStoreAt(location ?? "");
await createGroundwork({
  store,
  config: { builtin: { baseUrl: upstreamUrl ?? "", apiKey: "k" }, workers: { leaseMs: 1000, pollMs: 20 } },
  fetch: createFastFetch(),
}).start();
process.stdout.write("started\n");
