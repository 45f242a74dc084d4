import { describe, expect, it } from "vitest";
import { evaluateRules } from "./evaluate-rules.js";

const document = { start: "2024-01-01", end: "2024-02-01", net: 10, gross: 11.9, same: 10, empty: null };

const run = (left: string, operator: unknown, right: string, extra: Record<string, unknown> = {}) =>
  evaluateRules([{ id: "c", type: "CROSS_FIELD", left, operator, right, ...extra }], document).outcomes;

describe("CROSS_FIELD", () => {
  it.each([
    ["EQ", "/net", "/same", "PASS"],
    ["EQ", "/net", "/gross", "FAIL"],
    ["NE", "/net", "/gross", "PASS"],
    ["LT", "/net", "/gross", "PASS"],
    ["LT", "/net", "/same", "FAIL"],
    ["LTE", "/net", "/same", "PASS"],
    ["GT", "/gross", "/net", "PASS"],
    ["GTE", "/net", "/same", "PASS"],
    ["GTE", "/net", "/gross", "FAIL"],
  ])("%s on numbers: %s vs %s is %s", (operator, left, right, verdict) => {
    const outcomes = run(left, operator, right);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ verdict, field: left });
  });

  it("strings only with EQ/NE", () => {
    expect(run("/start", "EQ", "/start")[0]?.verdict).toBe("PASS");
    expect(run("/start", "NE", "/end")[0]?.verdict).toBe("PASS");
    expect(run("/start", "LT", "/end")[0]?.verdict).toBe("ERROR");
  });

  it("other pairings give ERROR", () => {
    expect(run("/start", "EQ", "/net")[0]?.verdict).toBe("ERROR");
  });

  it("absent or null side gives SKIPPED naming the missing side", () => {
    expect(run("/net", "EQ", "/absent")[0]).toMatchObject({ verdict: "SKIPPED", field: "/absent" });
    expect(run("/empty", "EQ", "/net")[0]).toMatchObject({
      verdict: "SKIPPED",
      field: "/empty",
      actual: "null",
    });
    expect(run("/net", "EQ", "/absent", { failOnMissing: true })[0]?.verdict).toBe("FAIL");
  });

  it("wildcards are a configuration ERROR", () => {
    expect(run("/a/*", "EQ", "/net")[0]?.verdict).toBe("ERROR");
    expect(run("/net", "EQ", "/a/*")[0]?.verdict).toBe("ERROR");
  });

  it("unknown or lower-case operator is ERROR", () => {
    expect(run("/net", "eq", "/same")[0]?.verdict).toBe("ERROR");
    expect(run("/net", "BETWEEN", "/same")[0]?.verdict).toBe("ERROR");
  });
});
