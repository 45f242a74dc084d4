// Child process for the write-behind tests: records usage rows and then ends without closing the
// store, the way the argument says — `throw` (an uncaught exception), `exit` (process.exit(3)) or
// `hang` (announces "recorded" and waits to be killed). Run with `node --import tsx` from the
// repository root: record-usage-and-exit <db> <rows> <throw|exit|hang>.
import { openStore } from "../src/open-store.js";

const [file, rows, ending] = process.argv.slice(2);
if (file === undefined || rows === undefined || ending === undefined) {
  throw new Error("usage: record-usage-and-exit <db> <rows> <throw|exit|hang>");
}
const store = openStore({ file });
const organization = store.organizations.create("crash", "team");
for (let i = 0; i < Number(rows); i++) {
  store.usage.record({
    organizationId: organization.id,
    apiKeyId: null,
    model: "gpt-x",
    surface: "CHAT",
    byok: false,
    promptTokens: 10,
    completionTokens: 5,
    cachedTokens: null,
    costEur: 0.01,
    latencyMs: 3,
    outcome: "ok",
    endUser: null,
    errorCode: null,
    status: null,
  });
}
if (ending === "throw") throw new Error("crashed with usage rows queued");
if (ending === "exit") process.exit(3);
process.stdout.write("recorded\n");
setInterval(() => {}, 1000);
