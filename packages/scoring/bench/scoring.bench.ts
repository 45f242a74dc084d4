import { bench, describe } from "vitest";
import { groundOutput, locateSpans, type SpanRequest, scoreResult } from "../src/index.js";
import { locateSpans as previousLocateSpans } from "../test/previous-locator/locate-spans.js";
import { buildBenchFixture } from "./bench-fixture.js";

const fixture = buildBenchFixture();
// Every string and number value of every item, as grounding would ask for them (10,000 requests).
const spanRequests: SpanRequest[] = fixture.output.items.flatMap((item) =>
  Object.entries(item).flatMap(([name, value]) =>
    typeof value === "string" || typeof value === "number"
      ? [{ value, series: `items.${name}`, partial: name === "fileName" }]
      : [],
  ),
);
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
    "groundOutput without span location (baseline for the cost of spans)",
    () => {
      groundOutput({
        jsonSchema: fixture.jsonSchema,
        output: fixture.output,
        texts: [fixture.inputText],
        spanText: null,
      });
    },
    options,
  );

  bench(
    "locateSpans alone: the 10,000 values, each repeated value at its n-th mention",
    () => {
      locateSpans(fixture.inputText, spanRequests);
    },
    options,
  );

  bench(
    "locateSpans alone, previous locator (before PV15; the same requests)",
    () => {
      previousLocateSpans(fixture.inputText, spanRequests);
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
