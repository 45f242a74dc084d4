/**
 * The human-in-the-loop policy gate (spec document 3, `hitlPolicy`): for one tool call it
 * composes `default`, `classes` and per-tool entries into a verdict. Pure; the table in
 * docs/agents.md ("Policy composition") is this function in words, and
 * policy.property.test.ts holds it to its safety rules.
 *
 * 1. Class: a `tools` entry `read|write|destructive` > annotations (`destructiveHint`
 *    → destructive, `readOnlyHint` → read, else write) > the built-in type's class >
 *    none.
 * 2. Statements that apply: `default`, `classes.<class>`, `tools.<name>` when it is an
 *    action (`approve|auto|deny`), `requiresConfirmation: true`.
 * 3. `deny` anywhere wins (and hides the tool from the model). Otherwise the most specific
 *    action wins: tool entry > class > default (`allow` when the file sets none).
 * 4. Floors: a destructive tool or one with `requiresConfirmation` never runs on
 *    `allow`/`auto` alone: they become `approve`.
 * 5. Conversation mode: `plan` blocks every tool that is not read class; `auto` turns an
 *    `approve` of a non-destructive tool into `auto` (a judge decides instead of a human).
 * 6. A tool approved with `remember` earlier in the conversation skips `approve`/`auto`
 *    unless it is destructive (`remember` is refused for destructive tools).
 * 6b. A tool that always pauses (`platform_skills_apply`) is `approve` unless denied or
 *    blocked (plan mode included), whatever the mode or memory says.
 * 7. Actions → verdicts: allow → EXECUTE (server-side tools) or RELAY (client tools),
 *    auto → JUDGE, approve → PAUSE_APPROVAL, block/deny → BLOCK. A tool the version does
 *    not have, or one this build cannot run, is FAIL.
 */
import type { HitlPolicy, ToolAnnotations, ToolClass } from "./definition.js";

export const VERDICTS = ["EXECUTE", "RELAY", "PAUSE_APPROVAL", "JUDGE", "BLOCK", "FAIL"] as const;
export type Verdict = (typeof VERDICTS)[number];
export type PolicyAction = "allow" | "auto" | "approve" | "block" | "deny";
export const MODES = ["plan", "ask", "auto"] as const;
export type ConversationMode = (typeof MODES)[number];

/** What the gate needs to know about a tool of the version. */
export interface GateTool {
  name: string;
  /** `server`: the platform runs it; `client`: relayed to the caller. */
  runs: "server" | "client";
  /** False for types this build accepts but cannot run (platform.skill, platform.bash). */
  runnable: boolean;
  annotations?: ToolAnnotations | undefined;
  /** The class built-in types carry without annotations. */
  builtinClass?: ToolClass | undefined;
  requiresConfirmation?: boolean | undefined;
  /**
   * Every call waits for a human (`platform_skills_apply`): `allow`, `auto`, the mode and
   * `remember` never let it run alone; `deny` still hides it and `block` or plan mode block it.
   */
  alwaysPause?: boolean | undefined;
}

export interface GateInput {
  /** The name the model called. */
  toolName: string;
  /** The version's tool of that name, or undefined when it has none. */
  tool: GateTool | undefined;
  policy: HitlPolicy | undefined;
  mode?: ConversationMode | undefined;
  /** Tools approved with `remember` in this conversation. */
  remembered?: ReadonlySet<string> | undefined;
}

export interface GateDecision {
  tool: string;
  verdict: Verdict;
  /** The composed action after floors, mode and memory; null for FAIL. */
  action: PolicyAction | null;
  class: ToolClass | null;
  classSource: string | null;
  /** The statement that decided the action (`default`, `classes.write`, `tools.x`, `floor.destructive`, `conversation_mode.plan`, `remembered`, …). */
  source: string;
  /** Every statement that applied, as `<path>=<value>`. */
  matched: string[];
  /** The model is not offered a tool the policy denies. */
  hiddenFromModel: boolean;
  reason: string;
}

function classOf(input: GateInput, tool: GateTool): { value: ToolClass | null; source: string | null } {
  const entry = input.policy?.tools?.[tool.name];
  if (entry === "read" || entry === "write" || entry === "destructive") {
    return { value: entry, source: `tools.${tool.name}` };
  }
  if (tool.annotations !== undefined) {
    if (tool.annotations.destructiveHint)
      return { value: "destructive", source: "annotations.destructiveHint" };
    if (tool.annotations.readOnlyHint) return { value: "read", source: "annotations.readOnlyHint" };
    return { value: "write", source: "annotations" };
  }
  if (tool.builtinClass !== undefined) return { value: tool.builtinClass, source: "builtin" };
  return { value: null, source: null };
}

export function evaluatePolicy(input: GateInput): GateDecision {
  const tool = input.tool;
  if (tool === undefined) {
    return {
      tool: input.toolName,
      verdict: "FAIL",
      action: null,
      class: null,
      classSource: null,
      source: "unknown_tool",
      matched: [],
      hiddenFromModel: true,
      reason: `The agent version has no tool named "${input.toolName}"`,
    };
  }
  const cls = classOf(input, tool);
  if (!tool.runnable) {
    return {
      tool: tool.name,
      verdict: "FAIL",
      action: null,
      class: cls.value,
      classSource: cls.source,
      source: "not_runnable",
      matched: [],
      hiddenFromModel: true,
      reason: `Tool "${tool.name}" is accepted in definitions but this build cannot run it`,
    };
  }
  const policy = input.policy;
  const matched: string[] = [];
  const candidates: Array<{ source: string; action: PolicyAction }> = [];
  const defaultAction: PolicyAction = policy?.default ?? "allow";
  matched.push(policy?.default === undefined ? "default=allow (implicit)" : `default=${policy.default}`);
  candidates.push({ source: "default", action: defaultAction });
  if (cls.value !== null) {
    const classAction = policy?.classes?.[cls.value];
    if (classAction !== undefined) {
      matched.push(`classes.${cls.value}=${classAction}`);
      candidates.push({ source: `classes.${cls.value}`, action: classAction });
    }
  }
  const entry = policy?.tools?.[tool.name];
  if (entry !== undefined) matched.push(`tools.${tool.name}=${entry}`);
  if (entry === "approve" || entry === "auto" || entry === "deny") {
    candidates.push({ source: `tools.${tool.name}`, action: entry });
  }

  const decide = (action: PolicyAction, source: string, reason: string, hidden = false): GateDecision => ({
    tool: tool.name,
    verdict: verdictOf(action, tool),
    action,
    class: cls.value,
    classSource: cls.source,
    source,
    matched,
    hiddenFromModel: hidden,
    reason,
  });

  const denial = candidates.find((c) => c.action === "deny");
  if (denial !== undefined) {
    return decide("deny", denial.source, `Denied by ${denial.source}`, true);
  }
  // Candidates were pushed from least to most specific.
  const winner = candidates[candidates.length - 1] as { source: string; action: PolicyAction };
  let action = winner.action;
  let source = winner.source;
  let reason = `${source} says ${action}`;

  if (action === "allow" || action === "auto") {
    if (cls.value === "destructive") {
      matched.push("floor.destructive=approve");
      action = "approve";
      source = "floor.destructive";
      reason = "Destructive tools never run without approval";
    } else if (tool.requiresConfirmation === true) {
      matched.push("requiresConfirmation=true");
      action = "approve";
      source = "requiresConfirmation";
      reason = "The tool requires confirmation";
    }
  }

  const mode = input.mode ?? "ask";
  if (mode === "plan" && cls.value !== "read" && action !== "block") {
    matched.push("conversation_mode.plan=block");
    return decide("block", "conversation_mode.plan", "Plan mode runs only read tools");
  }
  if (tool.alwaysPause === true && action !== "block") {
    matched.push("alwaysPause=approve");
    return decide("approve", "always_pause", `Every call of "${tool.name}" waits for a human`);
  }
  if (mode === "auto" && action === "approve" && cls.value !== "destructive") {
    matched.push("conversation_mode.auto=auto");
    action = "auto";
    source = "conversation_mode.auto";
    reason = "Auto mode lets the judge decide approvals of non-destructive tools";
  }
  if (
    (action === "approve" || action === "auto") &&
    cls.value !== "destructive" &&
    input.remembered?.has(tool.name) === true
  ) {
    matched.push("remembered=allow");
    return decide("allow", "remembered", "Approved with remember earlier in this conversation");
  }
  return decide(action, source, reason);
}

function verdictOf(action: PolicyAction, tool: GateTool): Verdict {
  switch (action) {
    case "allow":
      return tool.runs === "server" ? "EXECUTE" : "RELAY";
    case "auto":
      return "JUDGE";
    case "approve":
      return "PAUSE_APPROVAL";
    case "block":
    case "deny":
      return "BLOCK";
  }
}

/** `remember` approves a tool for the rest of the conversation; never for destructive tools. */
export function canRemember(input: Omit<GateInput, "mode" | "remembered" | "toolName">): boolean {
  if (input.tool === undefined || input.tool.alwaysPause === true) return false;
  return classOf({ ...input, toolName: input.tool.name }, input.tool).value !== "destructive";
}
