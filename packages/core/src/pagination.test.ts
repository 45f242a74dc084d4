import { describe, expect, it } from "vitest";
import { GroundworkError } from "./errors.js";
import { pageOffset, parsePageRequest, toPage } from "./pagination.js";

describe("pagination", () => {
  it("defaults to page 0 of 20", () => {
    expect(parsePageRequest({})).toEqual({ page: 0, size: 20 });
  });

  it("computes offsets and totals", () => {
    const request = parsePageRequest({ page: "2", size: "5" });
    expect(pageOffset(request)).toBe(10);
    expect(toPage(["k"], request, 11)).toEqual({
      content: ["k"],
      page: 2,
      size: 5,
      totalElements: 11,
      totalPages: 3,
    });
  });

  it.each([
    [{ page: "-1" }, "page"],
    [{ page: "x" }, "page"],
    [{ size: "0" }, "size"],
    [{ size: "101" }, "size"],
    [{ size: "1.5" }, "size"],
  ])("rejects %j naming the parameter", (query, param) => {
    try {
      parsePageRequest(query);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GroundworkError);
      expect((error as GroundworkError).param).toBe(param);
      expect((error as GroundworkError).status).toBe(400);
    }
  });
});
