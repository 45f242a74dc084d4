import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extended } from "./extended.js";

describe("extended", () => {
  it("is { ...source, ...fields }: same keys, same order, same values, same JSON", () => {
    fc.assert(
      fc.property(fc.object(), fc.object(), (source, fields) => {
        const spread = { ...source, ...fields };
        const copy = extended(source, fields);
        expect(Object.keys(copy)).toEqual(Object.keys(spread));
        expect(JSON.stringify(copy)).toBe(JSON.stringify(spread));
        expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      }),
    );
  });

  it("keeps a __proto__ key as an own property, as a spread does", () => {
    const source = JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as object;
    const copy = extended(source, { b: 2 });
    expect(Object.keys(copy)).toEqual(["a", "__proto__", "b"]);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...source, b: 2 }));
  });
});
