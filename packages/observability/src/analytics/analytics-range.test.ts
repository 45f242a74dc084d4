import { GroundworkError } from "@groundwork/core";
import { describe, expect, it } from "vitest";
import { parseInstant, resolveAnalyticsRange } from "./analytics-range.js";

const NOW = Date.parse("2025-03-10T12:34:56.789Z");
const paramOf = (query: Parameters<typeof resolveAnalyticsRange>[0]) => {
  try {
    resolveAnalyticsRange(query, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(GroundworkError);
    expect((error as GroundworkError).status).toBe(400);
    return (error as GroundworkError).param;
  }
  throw new Error("no error");
};

describe("resolveAnalyticsRange", () => {
  it("defaults to the last 7 days up to now, by day", () => {
    expect(resolveAnalyticsRange({}, NOW)).toEqual({ from: NOW - 7 * 86_400_000, to: NOW, bucket: "day" });
  });

  it("defaults to hours up to 48 hours, days beyond", () => {
    const to = "2025-03-10T00:00:00Z";
    expect(resolveAnalyticsRange({ from: "2025-03-08T00:00:00Z", to }, NOW).bucket).toBe("hour");
    expect(resolveAnalyticsRange({ from: "2025-03-07T23:59:59Z", to }, NOW).bucket).toBe("day");
    expect(resolveAnalyticsRange({ from: "2025-03-03T00:00:00Z", to, bucket: "hour" }, NOW).bucket).toBe(
      "hour",
    );
  });

  it("refuses with the parameter named", () => {
    expect(paramOf({ from: "yesterday" })).toBe("from");
    expect(paramOf({ to: "2025-03-10" })).toBe("to");
    expect(paramOf({ to: "2025-03-10T00:00:00" })).toBe("to"); // no offset
    expect(paramOf({ from: "2025-02-30T00:00:00Z" })).toBe("from");
    expect(paramOf({ from: "2025-03-10T00:00:00Z", to: "2025-03-10T00:00:00Z" })).toBe("from");
    expect(paramOf({ from: "2025-03-11T00:00:00Z", to: "2025-03-10T00:00:00Z" })).toBe("from");
    expect(paramOf({ from: "2024-12-07T23:59:59Z", to: "2025-03-10T00:00:00Z" })).toBe("from"); // 92 days + 1 s
    expect(paramOf({ bucket: "week" })).toBe("bucket");
    expect(paramOf({ from: "2025-03-02T23:59:59Z", to: "2025-03-10T00:00:00Z", bucket: "hour" })).toBe(
      "bucket",
    );
  });

  it("accepts exactly 92 days and exactly 7 days by the hour", () => {
    expect(() =>
      resolveAnalyticsRange({ from: "2024-12-08T00:00:00Z", to: "2025-03-10T00:00:00Z" }, NOW),
    ).not.toThrow();
    expect(
      resolveAnalyticsRange({ from: "2025-03-03T00:00:00Z", to: "2025-03-10T00:00:00Z", bucket: "hour" }, NOW)
        .bucket,
    ).toBe("hour");
  });
});

describe("parseInstant", () => {
  it("reads offsets, Z and fractions like Date.parse does", () => {
    for (const text of [
      "2025-01-31T09:15:00.000Z",
      "2025-01-31T10:15:00+01:00",
      "2025-01-31T04:15-05:00",
      "2025-01-31T09:15:00.123456Z",
    ]) {
      expect(parseInstant(text)).toBe(Date.parse(text));
    }
    expect(parseInstant("2025-01-31T09:15:00+0100")).toBe(Date.parse("2025-01-31T08:15:00Z"));
    expect(parseInstant("not a date")).toBeNull();
    expect(parseInstant("2025-13-01T00:00:00Z")).toBeNull();
    expect(parseInstant("2025-01-01T24:00:00Z")).toBeNull();
  });
});
