/**
 * The process the kill -9 test kills: opens the file database, starts the platform's
 * background workers (so queued experiment runs execute here) and reports each result
 * count on stdout until it is killed. Argv: <database file> <upstream url>.
 */
import { createFastFetch } from "@groundwork/gateway";
import { openStore } from "@groundwork/store-sqlite";
import { createGroundwork } from "../src/create-groundwork.js";

const [file, upstreamUrl] = process.argv.slice(2);
const store = openStore({ file: file ?? "" });
await createGroundwork({
  store,
  config: { builtin: { baseUrl: upstreamUrl ?? "", apiKey: "k" }, workers: { leaseMs: 1000, pollMs: 20 } },
  fetch: createFastFetch(),
}).start();
process.stdout.write("started\n");
