import { describeRequestCounterContract } from "../../../core/test/shared-limits-contract.js";
import { RequestWindow } from "./request-window.js";

// One process: both handles are the one in-memory window.
describeRequestCounterContract("in memory", async () => {
  const window = new RequestWindow();
  return [window, window];
});
