import { GroundworkError } from "@groundwork/core";
import { describe, expect, it } from "vitest";
import { parseEmbeddingsBody } from "./embeddings-request.js";

describe("parseEmbeddingsBody dimensions", () => {
  it("leaves any positive integer width to the provider, however large", () => {
    for (const dimensions of [1, 3072, 65_537, 100_000, Number.MAX_SAFE_INTEGER]) {
      expect(parseEmbeddingsBody({ model: "m", input: "x", dimensions }).dimensions).toBe(dimensions);
    }
  });

  it("refuses a width that is not a positive integer as an invalid request naming dimensions", () => {
    for (const dimensions of [0, -1, 1.5, "8", null, Number.POSITIVE_INFINITY]) {
      const error = (() => {
        try {
          parseEmbeddingsBody({ model: "m", input: "x", dimensions });
        } catch (caught) {
          return caught;
        }
        throw new Error(`accepted ${String(dimensions)}`);
      })();
      expect(error).toBeInstanceOf(GroundworkError);
      expect(error).toMatchObject({ status: 400, type: "invalid_request_error", param: "dimensions" });
    }
  });
});
