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
  });
});
