import { describe, expect, it } from "vitest";
import { evaluateRules } from "./evaluate-rules.js";

const invoice = {
  total: 15.5,
  lines: [{ amount: 10.2 }, { amount: 5.3 }, { amount: null }, {}],
  shipping: 0,
  text: "x",
};

const run = (rule: Record<string, unknown>, document: unknown = invoice) =>
  evaluateRules([{ id: "sum", type: "ARITHMETIC", field: "/total", ...rule }], document).outcomes;

const sum = (...operands: string[]) => ({ op: "SUM", operands });

describe("ARITHMETIC", () => {
  it("holds when |field - sum(operands)| <= tolerance; exactly one outcome", () => {
    const outcomes = run({ equals: sum("/lines/*/amount", "/shipping") });
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ verdict: "PASS", field: "/total", actual: "15.5" });
    expect(outcomes[0]?.expected).toBe("SUM(/lines/*/amount, /shipping) = 15.5");
  });

  it("sums as exact decimals (0.1 + 0.2 = 0.3)", () => {
    const document = { total: 0.3, a: 0.1, b: 0.2 };
    expect(run({ equals: sum("/a", "/b") }, document)[0]?.verdict).toBe("PASS");
  });

  it("fails outside the tolerance, passes inside it", () => {
    const document = { total: 10, a: 9.95 };
    expect(run({ equals: sum("/a") }, document)[0]?.verdict).toBe("FAIL");
    expect(run({ equals: sum("/a"), tolerance: 0.05 }, document)[0]?.verdict).toBe("PASS");
    expect(run({ equals: sum("/a"), tolerance: 0.04 }, document)[0]?.verdict).toBe("FAIL");
  });

  it("tolerance defaults to 0; a negative or non-numeric tolerance is ERROR", () => {
    expect(run({ equals: sum("/lines/0/amount") })[0]?.verdict).toBe("FAIL");
    expect(run({ equals: sum("/a"), tolerance: -1 })[0]?.verdict).toBe("ERROR");
    expect(run({ equals: sum("/a"), tolerance: "1" })[0]?.verdict).toBe("ERROR");
  });

  it("field with a wildcard is a configuration ERROR", () => {
    expect(run({ field: "/lines/*/amount", equals: sum("/a") })[0]?.verdict).toBe("ERROR");
  });

  it("operands may use a wildcard; null and absent operands are not counted", () => {
    const document = { total: 4, items: [{ v: 4 }, { v: null }, {}] };
    expect(run({ equals: sum("/items/*/v", "/absent") }, document)[0]?.verdict).toBe("PASS");
  });

  it("SKIPPED when the field is absent", () => {
    expect(run({ field: "/nope", equals: sum("/shipping") })[0]).toMatchObject({
      verdict: "SKIPPED",
      field: "/nope",
    });
  });

  it("SKIPPED when no operand resolves (FAIL with failOnMissing)", () => {
    expect(run({ equals: sum("/a", "/lines/2/amount") })[0]).toMatchObject({
      verdict: "SKIPPED",
      field: "/total",
    });
    expect(run({ equals: sum("/a"), failOnMissing: true })[0]?.verdict).toBe("FAIL");
  });

  it("other ops give ERROR", () => {
    expect(run({ equals: { op: "PRODUCT", operands: ["/a"] } })[0]?.verdict).toBe("ERROR");
    expect(run({ equals: { op: "sum", operands: ["/a"] } })[0]?.verdict).toBe("ERROR");
  });

  it("missing or empty operands give ERROR", () => {
    expect(run({ equals: { op: "SUM" } })[0]?.verdict).toBe("ERROR");
    expect(run({ equals: { op: "SUM", operands: [] } })[0]?.verdict).toBe("ERROR");
    expect(run({})[0]?.verdict).toBe("ERROR");
  });

  it("a non-numeric field or operand gives ERROR", () => {
    expect(run({ field: "/text", equals: sum("/shipping") })[0]?.verdict).toBe("ERROR");
    expect(run({ equals: sum("/text") })[0]?.actual).toContain("operand /text is a string");
  });
});
