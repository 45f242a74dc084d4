import { GroundworkError } from "@groundwork/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseEmbeddingsBody } from "./embeddings-request.js";

describe("parseEmbeddingsBody", () => {
  it("either accepts a body or throws a 400 GroundworkError, never anything else", () => {
    const field = fc.oneof(fc.jsonValue(), fc.constant(undefined));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({ model: field, input: field, dimensions: field, encoding_format: field, user: field }),
        ),
        (value) => {
          try {
            const body = parseEmbeddingsBody(value);
            expect(body.input.length).toBeGreaterThan(0);
            expect(body.input.every((text) => typeof text === "string" && text.length > 0)).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(GroundworkError);
            expect((error as GroundworkError).status).toBe(400);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("keeps input order and defaults to float", () => {
    expect(parseEmbeddingsBody({ model: "m", input: ["b", "a"] })).toEqual({
      model: "m",
      input: ["b", "a"],
      encodingFormat: "float",
    });
  });
});
