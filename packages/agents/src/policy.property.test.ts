import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { HitlPolicy, ToolEntry } from "./definition.js";
import { canRemember, evaluatePolicy, type GateTool, MODES, VERDICTS } from "./policy.js";

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const annotations = fc.record({ readOnlyHint: fc.boolean(), destructiveHint: fc.boolean() });
const tool: fc.Arbitrary<GateTool> = fc.record({
  name: fc.constant("t"),
  runs: fc.constantFrom("server" as const, "client" as const),
  runnable: fc.constant(true),
  annotations: maybe(annotations),
  builtinClass: maybe(fc.constantFrom("read" as const, "write" as const, "destructive" as const)),
  requiresConfirmation: maybe(fc.boolean()),
});
const entry = fc.constantFrom<ToolEntry>("read", "write", "destructive", "approve", "auto", "deny");
const policy: fc.Arbitrary<HitlPolicy | undefined> = maybe(
  fc.record(
    {
      default: fc.constantFrom("allow" as const, "approve" as const, "block" as const, "deny" as const),
      classes: fc.record(
        {
          read: fc.constantFrom(
            "allow" as const,
            "auto" as const,
            "approve" as const,
            "block" as const,
            "deny" as const,
          ),
          write: fc.constantFrom("auto" as const, "approve" as const, "block" as const, "deny" as const),
          destructive: fc.constantFrom("block" as const, "deny" as const),
        },
        { requiredKeys: [] },
      ),
      tools: fc.option(
        entry.map((e) => ({ t: e })),
        { nil: undefined },
      ),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<HitlPolicy>,
);
const mode = fc.constantFrom(...MODES);
const remembered = fc.boolean();

const input = fc.record({ tool, policy, mode, remembered });
const run = (i: {
  tool: GateTool;
  policy: HitlPolicy | undefined;
  mode: (typeof MODES)[number];
  remembered: boolean;
}) =>
  evaluatePolicy({
    toolName: "t",
    tool: i.tool,
    policy: i.policy,
    mode: i.mode,
    remembered: new Set(i.remembered ? ["t"] : []),
  });

function denies(p: HitlPolicy | undefined, cls: string | null): boolean {
  if (p === undefined) return false;
  if (p.default === "deny" || p.tools?.t === "deny") return true;
  return cls !== null && (p.classes as Record<string, string> | undefined)?.[cls] === "deny";
}

describe("policy gate properties", () => {
  it("always answers one of the six verdicts", () => {
    fc.assert(
      fc.property(input, (i) => {
        expect(VERDICTS).toContain(run(i).verdict);
      }),
    );
  });
  it("deny always wins: any applicable deny statement blocks and hides the tool", () => {
    fc.assert(
      fc.property(input, (i) => {
        const d = run(i);
        if (denies(i.policy, d.class)) {
          expect(d.verdict).toBe("BLOCK");
          expect(d.action).toBe("deny");
          expect(d.hiddenFromModel).toBe(true);
        } else {
          expect(d.action).not.toBe("deny");
        }
      }),
    );
  });
  it("a destructive tool never executes or relays without approval, in any mode, remembered or not", () => {
    fc.assert(
      fc.property(input, (i) => {
        const d = run(i);
        if (d.class === "destructive") expect(["PAUSE_APPROVAL", "BLOCK"]).toContain(d.verdict);
      }),
    );
  });
  it("requiresConfirmation never runs without approval unless remembered", () => {
    fc.assert(
      fc.property(input, (i) => {
        const d = run(i);
        if (i.tool.requiresConfirmation === true && !i.remembered) {
          expect(["PAUSE_APPROVAL", "JUDGE", "BLOCK"]).toContain(d.verdict);
        }
      }),
    );
  });
  it("plan mode runs only read tools", () => {
    fc.assert(
      fc.property(input, (i) => {
        const d = run({ ...i, mode: "plan" });
        if (d.class !== "read") expect(d.verdict).toBe("BLOCK");
      }),
    );
  });
  it("remember is refused exactly for destructive tools", () => {
    fc.assert(
      fc.property(input, (i) => {
        expect(canRemember({ tool: i.tool, policy: i.policy })).toBe(run(i).class !== "destructive");
      }),
    );
  });
  it("server tools never RELAY and client tools never EXECUTE", () => {
    fc.assert(
      fc.property(input, (i) => {
        const d = run(i);
        if (i.tool.runs === "server") expect(d.verdict).not.toBe("RELAY");
        else expect(d.verdict).not.toBe("EXECUTE");
      }),
    );
  });
  it("every decision lists the default statement it started from", () => {
    fc.assert(
      fc.property(input, (i) => {
        expect(run(i).matched[0]).toMatch(/^default=/);
      }),
    );
  });
});
