import { describeConcurrencySlotsContract } from "../../core/test/shared-limits-contract.js";
import { LocalConcurrencySlots } from "./local-concurrency-slots.js";

// One process: both handles are the one in-memory table of slots.
describeConcurrencySlotsContract("in memory", async () => {
  const slots = new LocalConcurrencySlots();
  return [slots, slots];
});
