import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentProblem } from "./requested-schema.js";

const schema = {
  type: "object",
  properties: {
    colour: { type: "string", enum: ["red", "blue"] },
    name: { type: "string", minLength: 2, maxLength: 5 },
    age: { type: "integer", minimum: 0, maximum: 150 },
    ok: { type: "boolean" },
    email: { type: "string", format: "email" },
  },
  required: ["colour"],
};

describe("contentProblem", () => {
  it("accepts content that matches and names the first property that does not", () => {
    expect(
      contentProblem(schema, { colour: "red", name: "Ann", age: 3, ok: true, email: "a@b.c" }),
    ).toBeNull();
    expect(contentProblem(schema, {})?.param).toBe("content.colour");
    expect(contentProblem(schema, { colour: "green" })?.param).toBe("content.colour");
    expect(contentProblem(schema, { colour: "red", name: "A" })?.param).toBe("content.name");
    expect(contentProblem(schema, { colour: "red", age: 1.5 })?.param).toBe("content.age");
    expect(contentProblem(schema, { colour: "red", age: 151 })?.param).toBe("content.age");
    expect(contentProblem(schema, { colour: "red", ok: "yes" })?.param).toBe("content.ok");
    expect(contentProblem(schema, { colour: "red", email: "nope" })?.param).toBe("content.email");
    expect(contentProblem(schema, { colour: "red", extra: 1 })?.param).toBe("content.extra");
  });

  it("never throws, whatever the schema and content", () => {
    fc.assert(
      fc.property(fc.object(), fc.dictionary(fc.string(), fc.anything()), (anySchema, content) => {
        const problem = contentProblem(anySchema as Record<string, unknown>, content);
        expect(problem === null || typeof problem.param === "string").toBe(true);
      }),
    );
  });
});
