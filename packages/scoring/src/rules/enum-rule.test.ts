import { describe, expect, it } from "vitest";
import { evaluateRules } from "./evaluate-rules.js";

const run = (values: unknown, v: unknown) =>
  evaluateRules([{ id: "e", type: "ENUM", field: "/v", values }], { v }).outcomes[0];

describe("ENUM", () => {
  it("holds when the value equals one entry", () => {
    expect(run(["EUR", "USD"], "USD")?.verdict).toBe("PASS");
    expect(run(["EUR", "USD"], "GBP")).toMatchObject({ verdict: "FAIL", expected: 'one of ["EUR","USD"]' });
  });

  it("is case-sensitive", () => {
    expect(run(["EUR"], "eur")?.verdict).toBe("FAIL");
  });

  it("two numbers compare as decimals", () => {
    expect(run([1.5, 2], 1.5)?.verdict).toBe("PASS");
    expect(run([0.30000000000000004], 0.3)?.verdict).toBe("FAIL");
  });

  it("mixed types fall back to text form", () => {
    expect(run(["1"], 1)?.verdict).toBe("PASS");
    expect(run([true], "true")?.verdict).toBe("PASS");
    expect(run(["1.0"], 1)?.verdict).toBe("FAIL");
  });

  it("object or array value is ERROR", () => {
    expect(run(["a"], { a: 1 })?.verdict).toBe("ERROR");
    expect(run(["a"], ["a"])?.verdict).toBe("ERROR");
  });

  it("missing or empty values is ERROR", () => {
    expect(run([], "a")?.verdict).toBe("ERROR");
    expect(run(undefined, "a")?.verdict).toBe("ERROR");
    expect(run("a", "a")?.verdict).toBe("ERROR");
  });
});
