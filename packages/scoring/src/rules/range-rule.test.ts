import { describe, expect, it } from "vitest";
import { evaluateRules } from "./evaluate-rules.js";

const run = (rule: Record<string, unknown>, document: unknown) =>
  evaluateRules([{ id: "r", type: "RANGE", field: "/v", ...rule }], document).outcomes;

describe("RANGE", () => {
  it("holds when the number is within inclusive bounds", () => {
    expect(run({ min: 1, max: 10 }, { v: 1 })[0]?.verdict).toBe("PASS");
    expect(run({ min: 1, max: 10 }, { v: 10 })[0]?.verdict).toBe("PASS");
    expect(run({ min: 1, max: 10 }, { v: 10.000001 })[0]?.verdict).toBe("FAIL");
  });

  it("accepts min only or max only", () => {
    expect(run({ min: 5 }, { v: 4 })[0]?.verdict).toBe("FAIL");
    expect(run({ max: 5 }, { v: 4 })[0]).toMatchObject({ verdict: "PASS", expected: "<= 5" });
  });

  it("needs at least one bound", () => {
    expect(run({}, { v: 4 })[0]).toMatchObject({ verdict: "ERROR", expected: "valid rule configuration" });
  });

  it("non-numeric bound is ERROR", () => {
    expect(run({ min: "1" }, { v: 4 })[0]?.verdict).toBe("ERROR");
  });

  it("min above max is ERROR", () => {
    expect(run({ min: 2, max: 1 }, { v: 4 })[0]?.actual).toContain("min is above max");
  });

  it("non-numeric value is ERROR at its location", () => {
    expect(run({ min: 0 }, { v: "4" })[0]).toMatchObject({ verdict: "ERROR", field: "/v" });
    expect(run({ min: 0 }, { v: true })[0]?.verdict).toBe("ERROR");
  });

  it("compares as exact decimals", () => {
    expect(run({ max: 0.3 }, { v: 0.3 })[0]?.verdict).toBe("PASS");
    expect(run({ min: 0.1, max: 0.1 }, { v: 0.1 })[0]?.verdict).toBe("PASS");
  });
});
