import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  appendPointer,
  compilePointer,
  getAtPointer,
  isPointerPrefix,
  isValidPointer,
  parsePointer,
} from "./json-pointer.js";

describe("JSON pointers (RFC 6901)", () => {
  it("escapes ~ as ~0 and / as ~1, root is the empty string", () => {
    expect(compilePointer([])).toBe("");
    expect(compilePointer(["a/b", "m~n", 0])).toBe("/a~1b/m~0n/0");
    expect(parsePointer("/a~1b/m~0n/0")).toEqual(["a/b", "m~n", "0"]);
    expect(appendPointer("/parts", 3)).toBe("/parts/3");
  });

  it("round-trips any list of tokens", () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (tokens) => {
        expect(parsePointer(compilePointer(tokens))).toEqual(tokens);
      }),
    );
  });

  it("reads values and reports missing locations as undefined", () => {
    const doc = { parts: [{ price: 3 }], "a/b": { "m~n": null } };
    expect(getAtPointer(doc, "")).toBe(doc);
    expect(getAtPointer(doc, "/parts/0/price")).toBe(3);
    expect(getAtPointer(doc, "/a~1b/m~0n")).toBeNull();
    expect(getAtPointer(doc, "/parts/1")).toBeUndefined();
    expect(getAtPointer(doc, "/parts/01")).toBeUndefined();
    expect(getAtPointer(doc, "/parts/0/price/x")).toBeUndefined();
    expect(getAtPointer(doc, "/toString")).toBeUndefined();
  });

  it("knows prefixes segment by segment", () => {
    expect(isPointerPrefix("", "/a")).toBe(true);
    expect(isPointerPrefix("/vendor", "/vendor/vatId")).toBe(true);
    expect(isPointerPrefix("/vendor", "/vendor")).toBe(true);
    expect(isPointerPrefix("/vendor", "/vendorName")).toBe(false);
  });

  it("validates pointer syntax", () => {
    expect(isValidPointer("")).toBe(true);
    expect(isValidPointer("/a/~0/~1")).toBe(true);
    expect(isValidPointer("a")).toBe(false);
    expect(isValidPointer("/a~2")).toBe(false);
  });
});
