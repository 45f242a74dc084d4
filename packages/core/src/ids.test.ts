import { describe, expect, it } from "vitest";
import { newId } from "./ids.js";

describe("newId", () => {
  it("prefixes, sorts by creation time and does not repeat", () => {
    const a = newId("job", 1_000);
    const b = newId("job", 2_000);
    expect(a).toMatch(/^job_[0-9a-z]{26}$/);
    expect(a < b).toBe(true);
    const many = new Set(Array.from({ length: 10_000 }, () => newId("x")));
    expect(many.size).toBe(10_000);
  });

  it("orders ids made within one millisecond", () => {
    const ids = Array.from({ length: 1_000 }, () => newId("x", 5_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("rejects prefixes that would make ids ambiguous", () => {
    expect(() => newId("Bad_prefix")).toThrow(/Invalid id prefix/);
    // Still refused after many good prefixes have been remembered.
    for (let i = 0; i < 300; i++) newId(`p${i}`);
    expect(() => newId("Bad_prefix")).toThrow(/Invalid id prefix/);
  });

  it("writes the time of each id, the same time's digits reused or not", () => {
    // Base 32 of the epoch milliseconds, ten digits, most significant first.
    const digits = (ms: number) => newId("t", ms).slice(2, 12);
    expect(digits(0)).toBe("0000000000");
    expect(digits(31)).toBe("000000000z");
    expect(digits(32)).toBe("0000000010");
    expect(digits(32)).toBe("0000000010");
    const crockford = "0123456789abcdefghjkmnpqrstvwxyz";
    const ms = Date.UTC(2026, 0, 1);
    const expected = [...ms.toString(32).padStart(10, "0")]
      .map((c) => crockford[Number.parseInt(c, 32)])
      .join("");
    expect(digits(ms)).toBe(expected);
  });
});
