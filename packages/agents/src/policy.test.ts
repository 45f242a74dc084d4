import { describe, expect, it } from "vitest";
import type { HitlPolicy } from "./definition.js";
import { canRemember, evaluatePolicy, type GateTool } from "./policy.js";

const server = (name: string, extra: Partial<GateTool> = {}): GateTool => ({
  name,
  runs: "server",
  runnable: true,
  ...extra,
});
const client = (name: string, extra: Partial<GateTool> = {}): GateTool => ({
  name,
  runs: "client",
  runnable: true,
  ...extra,
});
const readOnly = { readOnlyHint: true, destructiveHint: false };
const destructive = { readOnlyHint: false, destructiveHint: true };
const writes = { readOnlyHint: false, destructiveHint: false };

function verdict(
  tool: GateTool | undefined,
  policy?: HitlPolicy,
  extra: { mode?: "plan" | "ask" | "auto"; remembered?: string[] } = {},
) {
  return evaluatePolicy({
    toolName: tool?.name ?? "ghost",
    tool,
    policy,
    mode: extra.mode,
    remembered: new Set(extra.remembered ?? []),
  });
}

describe("policy gate decision table", () => {
  it("no policy: allow → EXECUTE for server tools, RELAY for client tools", () => {
    expect(verdict(server("s")).verdict).toBe("EXECUTE");
    expect(verdict(client("c")).verdict).toBe("RELAY");
    expect(verdict(server("s")).matched).toEqual(["default=allow (implicit)"]);
  });
  it("default approve / block / deny", () => {
    expect(verdict(server("s"), { default: "approve" }).verdict).toBe("PAUSE_APPROVAL");
    expect(verdict(server("s"), { default: "block" }).verdict).toBe("BLOCK");
    const denied = verdict(server("s"), { default: "deny" });
    expect(denied.verdict).toBe("BLOCK");
    expect(denied.hiddenFromModel).toBe(true);
  });
  it("class from annotations, overridden by a tools entry", () => {
    const d = verdict(server("s", { annotations: readOnly }), {
      default: "approve",
      classes: { read: "allow" },
    });
    expect(d).toMatchObject({
      verdict: "EXECUTE",
      class: "read",
      classSource: "annotations.readOnlyHint",
      source: "classes.read",
    });
    const w = verdict(server("s", { annotations: readOnly }), {
      default: "allow",
      classes: { write: "approve" },
      tools: { s: "write" },
    });
    expect(w).toMatchObject({ verdict: "PAUSE_APPROVAL", class: "write", classSource: "tools.s" });
    expect(verdict(server("s", { annotations: writes }), { classes: { write: "auto" } }).verdict).toBe(
      "JUDGE",
    );
  });
  it("the tool entry beats the class, which beats the default", () => {
    const tool = server("s", { annotations: writes });
    expect(verdict(tool, { default: "block", classes: { write: "approve" } }).source).toBe("classes.write");
    expect(
      verdict(tool, { default: "block", classes: { write: "block" }, tools: { s: "approve" } }),
    ).toMatchObject({
      verdict: "PAUSE_APPROVAL",
      source: "tools.s",
    });
  });
  it("deny anywhere wins", () => {
    const tool = server("s", { annotations: readOnly });
    expect(
      verdict(tool, { default: "deny", classes: { read: "allow" }, tools: { s: "approve" } }).source,
    ).toBe("default");
    expect(verdict(tool, { classes: { read: "deny" }, tools: { s: "approve" } }).source).toBe("classes.read");
    expect(verdict(tool, { tools: { s: "deny" } }).verdict).toBe("BLOCK");
  });
  it("destructive tools never run without approval", () => {
    const tool = server("s", { annotations: destructive });
    expect(verdict(tool).verdict).toBe("PAUSE_APPROVAL");
    expect(verdict(tool).source).toBe("floor.destructive");
    expect(verdict(tool, { tools: { s: "auto" } }).verdict).toBe("PAUSE_APPROVAL");
    expect(verdict(tool, { classes: { destructive: "block" } }).verdict).toBe("BLOCK");
    expect(verdict(tool, { classes: { destructive: "block" }, tools: { s: "approve" } }).verdict).toBe(
      "PAUSE_APPROVAL",
    );
    expect(verdict(tool, undefined, { mode: "auto" }).verdict).toBe("PAUSE_APPROVAL");
    expect(verdict(tool, undefined, { remembered: ["s"] }).verdict).toBe("PAUSE_APPROVAL");
    expect(verdict(server("t"), { tools: { t: "destructive" } }).verdict).toBe("PAUSE_APPROVAL");
  });
  it("requiresConfirmation raises allow to approve", () => {
    expect(verdict(server("s", { requiresConfirmation: true, builtinClass: "read" })).source).toBe(
      "requiresConfirmation",
    );
  });
  it("plan mode blocks everything that is not read class", () => {
    expect(verdict(server("s", { annotations: writes }), undefined, { mode: "plan" }).source).toBe(
      "conversation_mode.plan",
    );
    expect(verdict(server("s", { builtinClass: "read" }), undefined, { mode: "plan" }).verdict).toBe(
      "EXECUTE",
    );
    expect(verdict(client("c"), undefined, { mode: "plan" }).verdict).toBe("BLOCK");
  });
  it("auto mode hands approvals of non-destructive tools to the judge", () => {
    const d = verdict(
      server("s", { annotations: writes }),
      { classes: { write: "approve" } },
      { mode: "auto" },
    );
    expect(d).toMatchObject({ verdict: "JUDGE", source: "conversation_mode.auto" });
  });
  it("remembered approvals skip the pause", () => {
    const d = verdict(client("c"), { default: "approve" }, { remembered: ["c"] });
    expect(d).toMatchObject({ verdict: "RELAY", source: "remembered" });
  });
  it("unknown and unrunnable tools FAIL", () => {
    expect(verdict(undefined).verdict).toBe("FAIL");
    expect(verdict(server("b", { runnable: false })).verdict).toBe("FAIL");
  });
  it("remember is refused for destructive tools", () => {
    expect(canRemember({ tool: server("s", { annotations: destructive }), policy: undefined })).toBe(false);
    expect(canRemember({ tool: server("s"), policy: { tools: { s: "destructive" } } })).toBe(false);
    expect(canRemember({ tool: server("s", { annotations: writes }), policy: undefined })).toBe(true);
  });
});
