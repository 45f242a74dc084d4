/**
 * What analytics costs the gateway's write path: 4,096 usage rows (one latency-index run, HP65)
 * through the batched writer, in batches of 128, as written today (the rollup trigger of migration
 * 022, the latency index behind the rows of migration 33), beside the same writes with the latency
 * index kept inline as before migration 33. Latencies spread like a gateway's (most under a millisecond,
 * a tail to seconds) and the clock moves, so each batch holds many latency bins.
 * Run: npx vitest bench --run --project store-sqlite usage-write
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, bench, describe } from "vitest";
import { openStore } from "../src/open-store.js";
import { LATENCY_INDEX_AT } from "../src/usage-latencies.js";

type Layout = "written" | "inline";

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function storeWith(layout: Layout) {
  let now = Date.parse("2025-03-01T00:00:00.000Z");
  // A file in WAL mode, as served: what a batch costs is mostly the pages it writes to the log.
  const directory = mkdtempSync(join(tmpdir(), "gw-usage-bench-"));
  directories.push(directory);
  const file = join(directory, "groundwork.db");
  const store = openStore({ file, clock: { now: () => (now += 1) } });
  if (layout === "inline")
    store.db.exec(
      "CREATE INDEX usage_records_latency ON usage_records(organization_id, latency_bin, created_at, latency_ms)",
    );
  const org = store.organizations.create("bench", "enterprise");
  let i = 0;
  return () => {
    for (let n = 0; n < LATENCY_INDEX_AT; n++, i++) {
      const spread = (i * 7919) % 1000;
      store.usage.record({
        organizationId: org.id,
        apiKeyId: null,
        model: i % 3 === 0 ? "hosted-a/gpt-x" : "gpt-4o-mini",
        surface: "CHAT",
        byok: false,
        promptTokens: 200,
        completionTokens: 80,
        cachedTokens: null,
        costEur: 0.0001,
        latencyMs: spread < 850 ? 0.15 + spread / 1500 : 1 + (spread - 850) * 20,
        outcome: "ok",
        endUser: null,
      });
      if (n % 128 === 127) store.usage.flush();
    }
    store.usage.flush();
  };
}

const written = storeWith("written");
const inline = storeWith("inline");

describe("record 4,096 usage rows in batches of 128", () => {
  bench("as written: rollup trigger, latency index behind the rows (migration 33)", written);
  bench("the latency index inline, as before migration 33", inline);
});
