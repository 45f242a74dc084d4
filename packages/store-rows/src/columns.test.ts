import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bool, int, intOrNull, json } from "./columns.js";

describe("column readers", () => {
  it("read a BIGINT as SQLite or node-postgres hands it over", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(int(n)).toBe(n);
        expect(int(String(n))).toBe(n);
        expect(intOrNull(String(n))).toBe(n);
      }),
    );
    expect(intOrNull(null)).toBeNull();
    expect(intOrNull(undefined)).toBeNull();
  });

  it("read booleans from 0/1 and true/false alike", () => {
    expect([bool(1), bool(true), bool("1")]).toEqual([true, true, true]);
    expect([bool(0), bool(false), bool("0"), bool(null)]).toEqual([false, false, false, false]);
  });

  it("read JSON from text and from an already parsed JSONB value alike", () => {
    // A top-level string is the one JSONB value node-postgres hands over unparsed (see `json`).
    const parsedByDriver = fc.jsonValue().filter((value) => typeof value !== "string");
    fc.assert(
      fc.property(parsedByDriver, (value) => {
        expect(json(JSON.stringify(value))).toEqual(json(JSON.parse(JSON.stringify(value))));
      }),
    );
  });
});
