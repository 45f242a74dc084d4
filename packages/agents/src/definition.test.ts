import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isGroundworkError } from "@groundwork/core";
import { describe, expect, it } from "vitest";
import { definitionErrors, modelsOf, parseDefinition, toolName } from "./definition.js";
import { agentDefinitionSchema } from "./definition-schema.js";

const base = { name: "support", model: "gw-chat-1" };
const long = (n: number, c = "a") => c.repeat(n);

function firstError(value: unknown) {
  return definitionErrors(value)[0];
}

function expectValid(value: unknown) {
  expect(definitionErrors(value)).toEqual([]);
}

function expectInvalid(value: unknown, param: string | null) {
  const error = firstError(value);
  expect(error, JSON.stringify(value)).toBeDefined();
  expect(error?.param).toBe(param);
}

describe("the published schema file", () => {
  it("is generated from the TypeScript module (one source)", () => {
    const file = fileURLToPath(new URL("../../../docs/agent-definition.schema.json", import.meta.url));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(agentDefinitionSchema);
  });
});

describe("top level", () => {
  it("accepts the smallest file and a full one", () => {
    expectValid(base);
    expectValid({
      $schema: "./agent-definition.schema.json",
      name: "Support bot 1",
      description: "Answers questions",
      models: ["gw-chat-1", "hosted-a/gpt-x"],
      model: "gw-chat-1",
      instructions: "Be brief.",
      tools: [{ type: "platform.todo" }],
      hitlPolicy: { version: 1, default: "approve" },
      options: { temperature: 0 },
      skills: [{ name: "pdf-tools:extract", ref: "production" }],
    });
  });
  it("refuses unknown properties, naming them", () => {
    expectInvalid({ ...base, published: true }, "published");
  });
  it("requires name and one of model or models", () => {
    expectInvalid({ model: "x" }, "name");
    const error = firstError({ name: "x" });
    expect(error?.param).toBe("model");
    expect(error?.message).toMatch(/model or models/);
    expectValid({ name: "x", models: ["a"] });
  });
  it("refuses a value that is not an object", () => {
    expect(firstError([])?.param).toBeNull();
    expect(firstError("x")?.param).toBeNull();
  });
  it("$schema must be a string", () => {
    expectInvalid({ ...base, $schema: 1 }, "$schema");
  });
});

describe("name", () => {
  it("1 to 255 characters without # or @", () => {
    expectValid({ ...base, name: long(255) });
    expectValid({ ...base, name: "a b/c.d" });
    expectInvalid({ ...base, name: "" }, "name");
    expectInvalid({ ...base, name: long(256) }, "name");
    expectInvalid({ ...base, name: "a#b" }, "name");
    expectInvalid({ ...base, name: "a@b" }, "name");
    expectInvalid({ ...base, name: 5 }, "name");
  });
});

describe("description and instructions", () => {
  it("description at most 4000 characters", () => {
    expectValid({ ...base, description: long(4000) });
    expectInvalid({ ...base, description: long(4001) }, "description");
    expectInvalid({ ...base, description: null }, "description");
  });
  it("instructions at most 20000 characters", () => {
    expectValid({ ...base, instructions: long(20000) });
    expectInvalid({ ...base, instructions: long(20001) }, "instructions");
  });
});

describe("model and models", () => {
  it("model: provider/model or a bare name, no #, 1 to 255", () => {
    expectValid({ ...base, model: "hosted-a/gpt-4o" });
    expectValid({ ...base, model: "gpt-4o-mini" });
    expectValid({ ...base, model: "my-provider/org/model:tag" });
    expectInvalid({ ...base, model: "" }, "model");
    expectInvalid({ ...base, model: "a#b" }, "model");
    expectInvalid({ ...base, model: "bad prefix!/model" }, "model");
    expectInvalid({ ...base, model: long(256) }, "model");
  });
  it("models: 1 to 10 unique valid entries", () => {
    expectValid({ name: "x", models: Array.from({ length: 10 }, (_, i) => `m${i}`) });
    expectInvalid({ name: "x", models: [] }, "models");
    expectInvalid({ name: "x", models: Array.from({ length: 11 }, (_, i) => `m${i}`) }, "models");
    expectInvalid({ name: "x", models: ["a", "a"] }, "models");
    expectInvalid({ name: "x", models: ["a", "b#c"] }, "models[1]");
    expectInvalid({ name: "x", models: ["a", long(256)] }, "models[1]");
  });
  it("model must equal models[0] when both are given", () => {
    expectValid({ name: "x", model: "a", models: ["a", "b"] });
    const error = firstError({ name: "x", model: "b", models: ["a", "b"] });
    expect(error?.param).toBe("model");
    expect(error?.message).toMatch(/models\[0\]/);
  });
  it("modelsOf puts the default first", () => {
    expect(modelsOf({ name: "x", model: "a" })).toEqual(["a"]);
    expect(modelsOf({ name: "x", models: ["b", "c"] })).toEqual(["b", "c"]);
  });
});

describe("options and skills", () => {
  it("options is an object", () => {
    expectValid({ ...base, options: {} });
    expectInvalid({ ...base, options: [] }, "options");
  });
  it("skills: at most 20 bindings of {name, ref?}", () => {
    expectValid({ ...base, skills: Array.from({ length: 20 }, (_, i) => ({ name: `s${i}` })) });
    expectInvalid({ ...base, skills: Array.from({ length: 21 }, (_, i) => ({ name: `s${i}` })) }, "skills");
    expectValid({ ...base, skills: [{ name: "ns:skill-a", ref: "3" }] });
    expectInvalid({ ...base, skills: [{ name: "Bad" }] }, "skills[0].name");
    expectInvalid({ ...base, skills: [{ name: "a--b" }] }, "skills[0].name");
    expectInvalid({ ...base, skills: [{ name: `${long(150)}:${long(51)}` }] }, "skills[0].name");
    expectInvalid({ ...base, skills: [{ ref: "x" }] }, "skills[0].name");
    expectInvalid({ ...base, skills: [{ name: "a", ref: "  " }] }, "skills[0].ref");
    expectInvalid({ ...base, skills: [{ name: "a", extra: 1 }] }, "skills[0].extra");
  });
});

describe("tools", () => {
  const withTool = (tool: unknown) => ({ ...base, tools: [tool] });
  it("file_search needs config.knowledgeBaseIds and takes nothing else", () => {
    expectValid(
      withTool({ type: "file_search", config: { knowledgeBaseIds: ["kb_1"] }, requiresConfirmation: true }),
    );
    expectInvalid(withTool({ type: "file_search" }), "tools[0].config");
    expectInvalid(withTool({ type: "file_search", config: {} }), "tools[0].config.knowledgeBaseIds");
    expectInvalid(
      withTool({ type: "file_search", config: { knowledgeBaseIds: [""] } }),
      "tools[0].config.knowledgeBaseIds[0]",
    );
    expectInvalid(
      withTool({ type: "file_search", config: { knowledgeBaseIds: [] }, name: "x" }),
      "tools[0].name",
    );
    expectInvalid(
      withTool({ type: "file_search", config: { knowledgeBaseIds: [] }, requiresConfirmation: "yes" }),
      "tools[0].requiresConfirmation",
    );
  });
  it("platform.extraction needs config.schemaIds, optional config.model", () => {
    expectValid(
      withTool({ type: "platform.extraction", config: { schemaIds: ["sch_1"], model: "gw-chat-1" } }),
    );
    expectInvalid(withTool({ type: "platform.extraction", config: {} }), "tools[0].config.schemaIds");
    expectInvalid(
      withTool({ type: "platform.extraction", config: { schemaIds: ["a"], model: "" } }),
      "tools[0].config.model",
    );
  });
  it("platform.document_convert and platform.todo", () => {
    expectValid(withTool({ type: "platform.document_convert", config: { ocr: true } }));
    expectValid(withTool({ type: "platform.document_convert" }));
    expectInvalid(withTool({ type: "platform.document_convert", config: 1 }), "tools[0].config");
    expectValid(withTool({ type: "platform.todo", requiresConfirmation: false }));
    expectInvalid(withTool({ type: "platform.todo", config: {} }), "tools[0].config");
  });
  it("platform.skill: 1 to 20 unique skill references", () => {
    expectValid(withTool({ type: "platform.skill", skills: ["pdf", "ns:x-y@1.2"] }));
    expectInvalid(withTool({ type: "platform.skill" }), "tools[0].skills");
    expectInvalid(withTool({ type: "platform.skill", skills: [] }), "tools[0].skills");
    expectInvalid(withTool({ type: "platform.skill", skills: ["a", "a"] }), "tools[0].skills");
    expectInvalid(withTool({ type: "platform.skill", skills: ["A"] }), "tools[0].skills[0]");
    expectInvalid(
      withTool({ type: "platform.skill", skills: Array.from({ length: 21 }, (_, i) => `s${i}`) }),
      "tools[0].skills",
    );
  });
  it("platform.bash: approval, outputs, annotations", () => {
    expectValid(
      withTool({
        type: "platform.bash",
        approval: "pause",
        outputs: "held",
        annotations: { readOnlyHint: false, destructiveHint: true },
      }),
    );
    expectInvalid(withTool({ type: "platform.bash", approval: "never" }), "tools[0].approval");
    expectInvalid(withTool({ type: "platform.bash", outputs: "later" }), "tools[0].outputs");
  });
  it("function: name and an http(s) endpoint", () => {
    const fn = { type: "function", name: "lookup", endpoint: "https://example.com/hook" };
    expectValid(withTool({ ...fn, description: "d", parameters: { type: "object" }, secret: "s" }));
    expectInvalid(withTool({ ...fn, name: "" }), "tools[0].name");
    expectInvalid(withTool({ type: "function", endpoint: fn.endpoint }), "tools[0].name");
    expectInvalid(withTool({ type: "function", name: "x" }), "tools[0].endpoint");
    expectInvalid(withTool({ ...fn, endpoint: "ftp://example.com" }), "tools[0].endpoint");
    expectInvalid(withTool({ ...fn, parameters: "x" }), "tools[0].parameters");
    expectInvalid(withTool({ ...fn, secret: 1 }), "tools[0].secret");
    expectInvalid(withTool({ ...fn, extra: 1 }), "tools[0].extra");
  });
  it("refuses the non-configurable built-in types", () => {
    for (const type of [
      "platform.tool_search",
      "platform.skill_read",
      "platform.skills_apply",
      "platform.deliver",
      "platform.view_image",
      "web_search",
    ]) {
      const error = firstError(withTool({ type, name: "x" }));
      expect(error?.param, type).toBe("tools[0].type");
      expect(error?.message).toMatch(/cannot be configured/);
    }
  });
  it("any other type (or none) is a named tool that needs a name", () => {
    expectValid(withTool({ name: "open_ticket", description: "d", parameters: { type: "object" } }));
    expectValid(withTool({ type: "client", name: "open_ticket" }));
    expectInvalid(withTool({ type: "client" }), "tools[0].name");
    expectInvalid(withTool({}), "tools[0].name");
    expectInvalid(withTool({ name: "" }), "tools[0].name");
    expectInvalid(withTool({ name: "x", endpoint: "https://e" }), "tools[0].endpoint");
    expectInvalid(withTool({ name: "x", type: 3 }), "tools[0].type");
  });
  it("annotations need readOnlyHint and destructiveHint booleans", () => {
    const named = (annotations: unknown) => withTool({ name: "x", annotations });
    expectValid(named({ readOnlyHint: true, destructiveHint: false, openWorldHint: true }));
    expectInvalid(named({ readOnlyHint: true }), "tools[0].annotations.destructiveHint");
    expectInvalid(named({ destructiveHint: true }), "tools[0].annotations.readOnlyHint");
    expectInvalid(
      named({ readOnlyHint: "yes", destructiveHint: false }),
      "tools[0].annotations.readOnlyHint",
    );
    expectInvalid(
      named({ readOnlyHint: true, destructiveHint: false, other: 1 }),
      "tools[0].annotations.other",
    );
  });
  it("tool names are unique", () => {
    const error = firstError({ ...base, tools: [{ name: "a" }, { name: "a" }] });
    expect(error?.param).toBe("tools[1]");
    expectInvalid({ ...base, tools: [{ type: "platform.todo" }, { type: "platform.todo" }] }, "tools[1]");
  });
  it("tools is an array of objects", () => {
    expectInvalid({ ...base, tools: {} }, "tools");
    expectInvalid({ ...base, tools: ["x"] }, "tools[0]");
  });
  it("built-in tools are named after their type", () => {
    expect(toolName({ type: "platform.document_convert" })).toBe("platform_document_convert");
    expect(toolName({ type: "function", name: "f", endpoint: "https://x" })).toBe("f");
  });
});

describe("hitlPolicy", () => {
  const withPolicy = (hitlPolicy: unknown) => ({ ...base, hitlPolicy });
  it("accepts every allowed value", () => {
    expectValid(
      withPolicy({
        version: 1,
        default: "deny",
        classes: { read: "auto", write: "approve", destructive: "block" },
        tools: { a: "read", b: "write", c: "destructive", d: "approve", e: "auto", f: "deny" },
      }),
    );
  });
  it("refuses what the table does not allow, naming the field", () => {
    expectInvalid(withPolicy({ version: 2 }), "hitlPolicy.version");
    expectInvalid(withPolicy({ default: "auto" }), "hitlPolicy.default");
    expectInvalid(withPolicy({ classes: { read: "maybe" } }), "hitlPolicy.classes.read");
    expectInvalid(withPolicy({ classes: { write: "allow" } }), "hitlPolicy.classes.write");
    expectInvalid(withPolicy({ classes: { destructive: "approve" } }), "hitlPolicy.classes.destructive");
    expectInvalid(withPolicy({ classes: { other: "deny" } }), "hitlPolicy.classes.other");
    expectInvalid(withPolicy({ tools: { a: "allow" } }), "hitlPolicy.tools.a");
    expectInvalid(withPolicy({ tools: { "  ": "deny" } }), "hitlPolicy.tools.  ");
    expectInvalid(withPolicy({ extra: 1 }), "hitlPolicy.extra");
  });
});

describe("parseDefinition", () => {
  it("throws a 400 naming the field", () => {
    try {
      parseDefinition({ name: "a@b", model: "x" });
      expect.unreachable();
    } catch (error) {
      expect(isGroundworkError(error)).toBe(true);
      if (!isGroundworkError(error)) return;
      expect(error.status).toBe(400);
      expect(error.param).toBe("name");
      expect(error.code).toBe("invalid_agent_definition");
    }
  });
});
