import { GroundworkError } from "@groundwork/core";
import { describe, expect, it } from "vitest";
import { parseModelString } from "./model-string.js";
import { MODEL_PREFIXES } from "./provider-kinds.js";

describe("parseModelString", () => {
  it("routes a bare name to the built-in models", () => {
    expect(parseModelString("gpt-small")).toEqual({ kind: "builtin", model: "gpt-small" });
  });

  it("routes <prefix>/<model> to the provider kind, passing the id after the first slash unchanged", () => {
    const route = parseModelString("hosted-a/ft:org/model:v2");
    expect(route.kind).toBe("provider");
    if (route.kind === "provider") {
      expect(route.provider.type).toBe("HOSTED_A");
      expect(route.model).toBe("ft:org/model:v2");
    }
    for (const prefix of MODEL_PREFIXES) expect(parseModelString(`${prefix}/m`).kind).toBe("provider");
  });

  it("lists the valid prefixes for an unknown one", () => {
    try {
      parseModelString("acme/model");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GroundworkError);
      const e = error as GroundworkError;
      expect(e.status).toBe(400);
      expect(e.code).toBe("unknown_model_prefix");
      for (const prefix of MODEL_PREFIXES) expect(e.message).toContain(prefix);
    }
  });

  it.each(["", "  ", "hosted-a/"])("rejects %j", (model) => {
    expect(() => parseModelString(model)).toThrow(GroundworkError);
  });
});
