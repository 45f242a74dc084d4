import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isGroundworkError } from "./errors.js";
import {
  compileTemplate,
  missingTemplateVariables,
  parseTemplate,
  templateVariables,
} from "./prompt-template.js";

describe("prompt templates", () => {
  it("replaces every occurrence, with optional inner spaces", () => {
    expect(compileTemplate("Hi {{name}}, {{ name }}! {{n}}", { name: "Ada", n: 3, unused: "x" })).toBe(
      "Hi Ada, Ada! 3",
    );
  });

  it("keeps braces around a variable literal", () => {
    expect(compileTemplate("{{{x}}}", { x: 1 })).toBe("{1}");
    expect(templateVariables("{{{x}}}")).toEqual(["x"]);
    expect(compileTemplate("{ {{x}} } {{ 1x }} {{}}", { x: true })).toBe("{ true } {{ 1x }} {{}}");
  });

  it("writes objects and arrays as JSON, strings verbatim", () => {
    expect(
      compileTemplate("{{a}}|{{b}}|{{c}}|{{d}}", { a: { k: [1] }, b: [1, "2"], c: '"q"', d: null }),
    ).toBe('{"k":[1]}|[1,"2"]|"q"|null');
  });

  it("lists variables in order of first use", () => {
    expect(templateVariables("{{b}} {{a.b-c_d}} {{b}} {{_x}}")).toEqual(["b", "a.b-c_d", "_x"]);
  });

  it("names every missing variable, sorted, as missing_variables on `variables`", () => {
    try {
      compileTemplate("{{zeta}} {{alpha}} {{here}}", { here: "" });
      expect.unreachable();
    } catch (error) {
      expect(isGroundworkError(error)).toBe(true);
      const e = error as { status: number; code: string; param: string; message: string };
      expect([e.status, e.code, e.param]).toEqual([400, "missing_variables", "variables"]);
      expect(e.message).toContain("alpha, zeta");
    }
  });

  it("a template without placeholders compiles to itself whatever the values (property)", () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes("{{")),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (text, vars) => {
          expect(compileTemplate(text, vars)).toBe(text);
        },
      ),
    );
  });

  it("compiling with every variable bound leaves no placeholder of a bound name (property)", () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
    const literal = fc.string().map((s) => s.replaceAll("{", "(").replaceAll("}", ")"));
    fc.assert(
      fc.property(fc.array(fc.tuple(literal, name), { maxLength: 8 }), literal, (pieces, tail) => {
        const template = pieces.map(([text, n]) => `${text}{{${n}}}`).join("") + tail;
        const vars = Object.fromEntries(pieces.map(([, n]) => [n, `<${n}>`]));
        const compiled = compileTemplate(template, vars);
        expect(compiled).toBe(pieces.map(([text, n]) => `${text}<${n}>`).join("") + tail);
        expect(missingTemplateVariables([template], vars)).toEqual([]);
        expect(parseTemplate(template).length).toBe(pieces.length * 2 + 1);
      }),
    );
  });
});
