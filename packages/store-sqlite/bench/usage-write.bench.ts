/**
 * What analytics costs the gateway's write path: 1,000 usage rows through the batched writer
 * with migration 022's insert-time rollups (trigger: hourly sums, hourly and daily latency bins)
 * and its two extra indexes, beside the same writes on a store where those are dropped (the
 * write path as it was before). Run: npx vitest bench --run --project store-sqlite usage-write
 */
import { bench, describe } from "vitest";
import { openStore } from "../src/open-store.js";

function storeWith(rollups: boolean) {
  let now = Date.parse("2025-03-01T00:00:00.000Z");
  const store = openStore({ file: ":memory:", clock: { now: () => (now += 997) } });
  if (!rollups) {
    store.db.exec(`DROP TRIGGER usage_records_rollup;
      DROP INDEX usage_records_latency;
      DROP INDEX usage_records_errors;`);
  }
  const org = store.organizations.create("bench", "enterprise");
  let i = 0;
  return () => {
    for (let n = 0; n < 1_000; n++, i++) {
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
        latencyMs: 50 + ((i * 7919) % 5000) / 10,
        outcome: "ok",
        endUser: null,
      });
    }
    store.usage.flush();
  };
}

const withRollups = storeWith(true);
const without = storeWith(false);

describe("record 1,000 usage rows", () => {
  bench("with analytics rollups and indexes (migration 022)", withRollups);
  bench("baseline: the same rows without the trigger and the two indexes", without);
});
