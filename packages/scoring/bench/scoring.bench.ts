import { bench, describe } from "vitest";
import { groundOutput, scoreResult } from "../src/index.js";
import { buildBenchFixture } from "./bench-fixture.js";

const fixture = buildBenchFixture();
// Enough samples for a stable median on a shared 2-core machine.
const options = { iterations: 60, warmupIterations: 10, time: 0 };
export let sink = 0;

describe("1,000 items × 10 fields against 400,000 characters", () => {
  bench(
    "scoreResult (validation, 3 rules, grounding, confidence, flags)",
    () => {
      scoreResult(fixture);
    },
    options,
  );

  bench(
    "groundOutput alone",
    () => {
      groundOutput({ jsonSchema: fixture.jsonSchema, output: fixture.output, texts: [fixture.inputText] });
    },
    options,
  );

  bench(
    "naive: one indexOf per string value (exact matches only; the cost the index avoids)",
    () => {
      const text = fixture.inputText;
      let positions = 0;
      for (const item of fixture.output.items) {
        for (const value of Object.values(item))
          if (typeof value === "string") positions += text.indexOf(value);
      }
      // Used, so that the engine cannot drop the searches as dead code.
      sink = positions;
    },
    { iterations: 3, warmupIterations: 0, time: 0 },
  );
});
