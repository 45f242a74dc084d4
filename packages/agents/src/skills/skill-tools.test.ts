/** The skill tools' offering rules, the always-pause gate rule and the unified diff of skills-apply previews. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentDefinition } from "../definition.js";
import { canRemember, evaluatePolicy, MODES } from "../policy.js";
import type { RunSkill } from "../run-state.js";
import { runTools, skillIndex, skillTools, withSkillIndex } from "./skill-tools.js";
import { cutBytes, unifiedDiff } from "./unified-diff.js";

const skill = (name: string, namespace: string | null = null): RunSkill => ({
  skillId: `skl_${name}`,
  qualifiedName: namespace === null ? name : `${namespace}:${name}`,
  namespace,
  name,
  description: `${name} things`,
  versionId: `skv_${name}`,
  versionNumber: 1,
});

describe("skill tools", () => {
  const definition: AgentDefinition = { name: "a", model: "m" };

  it("offers none without a resolved skill, skills_apply only with a null-namespace skill", () => {
    expect(skillTools(definition, [])).toEqual([]);
    expect(skillTools(definition, [skill("x", "plug")]).map((t) => t.name)).toEqual([
      "platform_skill",
      "platform_skill_read",
    ]);
    expect(skillTools(definition, [skill("x", "plug"), skill("y")]).map((t) => t.name)).toEqual([
      "platform_skill",
      "platform_skill_read",
      "platform_skills_apply",
    ]);
  });

  it("replaces a configured platform.skill in place and copies requiresConfirmation to both read tools", () => {
    const configured: AgentDefinition = {
      ...definition,
      tools: [
        { type: "platform.todo" },
        { type: "platform.skill", skills: ["y"], requiresConfirmation: true },
      ],
    };
    const tools = runTools(configured, [skill("y")]);
    expect(tools.map((t) => [t.name, t.catalog ?? "definition"])).toEqual([
      ["platform_todo", "definition"],
      ["platform_skill", "definition"],
      ["platform_skill_read", "platform"],
      ["platform_skills_apply", "platform"],
    ]);
    expect(tools[1]?.gate.requiresConfirmation).toBe(true);
    expect(tools[2]?.gate.requiresConfirmation).toBe(true);
    expect(tools[3]?.gate.requiresConfirmation).toBeUndefined();
    // Nothing resolved: the entry stays, not runnable.
    const none = runTools(configured, []);
    expect(none.map((t) => t.name)).toEqual(["platform_todo", "platform_skill"]);
    expect(none[1]?.gate.runnable).toBe(false);
  });

  it("indexes the resolved skills after the instructions", () => {
    expect(skillIndex([])).toBeNull();
    expect(withSkillIndex("Be brief.", [])).toBe("Be brief.");
    expect(withSkillIndex(null, [skill("y")])).toMatch(/^Skills .*\n- y — y things$/);
    expect(withSkillIndex("Be brief.", [skill("y"), skill("z", "p")])).toMatch(
      /^Be brief\.\n\nSkills .*\n- y — y things\n- p:z — z things$/,
    );
  });

  it("skills_apply always pauses unless denied or blocked, and can never be remembered", () => {
    const apply = skillTools(definition, [skill("y")]).find((t) => t.name === "platform_skills_apply");
    const gate = apply?.gate;
    expect(gate).toBeDefined();
    fc.assert(
      fc.property(
        fc.constantFrom("allow", "approve", "auto", "block", "deny", undefined),
        fc.constantFrom("allow", "approve", "block", "deny", undefined),
        fc.constantFrom(...MODES),
        fc.boolean(),
        (entry, fallback, mode, remembered) => {
          const policy = {
            ...(fallback === undefined ? {} : { default: fallback }),
            ...(entry === undefined || entry === "allow" || entry === "block"
              ? {}
              : { tools: { platform_skills_apply: entry } }),
            ...(entry === "block" ? { classes: { write: "block" as const } } : {}),
            ...(entry === "allow" ? { classes: { write: "allow" as const } } : {}),
          };
          const decision = evaluatePolicy({
            toolName: "platform_skills_apply",
            tool: gate,
            policy: policy as never,
            mode,
            remembered: new Set(remembered ? ["platform_skills_apply"] : []),
          });
          expect(["PAUSE_APPROVAL", "BLOCK"]).toContain(decision.verdict);
          const denied = entry === "deny" || fallback === "deny";
          expect(decision.hiddenFromModel).toBe(denied);
          if (!denied && mode !== "plan" && entry !== "block" && fallback !== "block") {
            expect(decision.verdict).toBe("PAUSE_APPROVAL");
          }
        },
      ),
    );
    expect(canRemember({ tool: gate, policy: undefined })).toBe(false);
  });
});

describe("unifiedDiff", () => {
  it("writes hunks with three lines of context, split when changes are more than six lines apart", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
    const after = before.replace("line 10", "line ten").replace("line 19", "line nineteen");
    expect(unifiedDiff("a.md", `${before}\n`, `${after}\n`, 20_000)).toBe(
      [
        "--- a/a.md",
        "+++ b/a.md",
        "@@ -7,7 +7,7 @@",
        " line 7",
        " line 8",
        " line 9",
        "-line 10",
        "+line ten",
        " line 11",
        " line 12",
        " line 13",
        "@@ -16,5 +16,5 @@",
        " line 16",
        " line 17",
        " line 18",
        "-line 19",
        "+line nineteen",
        " line 20",
        "",
      ].join("\n"),
    );
    expect(unifiedDiff("n.md", null, "a\nb\n", 1000)).toBe(
      "--- /dev/null\n+++ b/n.md\n@@ -0,0 +1,2 @@\n+a\n+b\n",
    );
  });

  it("keeps every line: old = context + removed, new = context + added (property)", () => {
    const lines = fc.array(fc.constantFrom("a", "b", "c", "d", ""), { maxLength: 40 });
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const before = a.map((l) => `${l}\n`).join("");
        const after = b.map((l) => `${l}\n`).join("");
        const diff = unifiedDiff("f", before, after, 1_000_000).split("\n").slice(2, -1);
        if (before === after) {
          expect(diff).toEqual([]);
          return;
        }
        // Rebuild both sides hunk by hunk, filling the gaps from the originals.
        const oldOut: string[] = [];
        const newOut: string[] = [];
        let oldAt = 0;
        for (const line of diff) {
          const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(line);
          if (header !== null) {
            const count = header[2] === undefined ? 1 : Number(header[2]);
            const start = count === 0 ? Number(header[1]) : Number(header[1]) - 1;
            while (oldAt < start) {
              oldOut.push(a[oldAt] as string);
              newOut.push(a[oldAt] as string);
              oldAt++;
            }
            continue;
          }
          const kind = line[0];
          const text = line.slice(1);
          if (kind === " " || kind === "-") {
            oldOut.push(text);
            oldAt++;
          }
          if (kind === " " || kind === "+") newOut.push(text);
        }
        while (oldAt < a.length) {
          oldOut.push(a[oldAt] as string);
          newOut.push(a[oldAt] as string);
          oldAt++;
        }
        expect(oldOut).toEqual(a);
        expect(newOut).toEqual(b);
      }),
    );
  });

  it("cuts at the byte limit on a character boundary with a marker", () => {
    const cut = cutBytes("é".repeat(20), 7);
    expect(cut).toBe("ééé\n[… diff truncated: 40 bytes, the first 6 shown]\n");
    expect(cutBytes("short", 100)).toBe("short");
    const big = unifiedDiff("big.txt", null, "x".repeat(30_000), 20 * 1024);
    expect(Buffer.byteLength(big)).toBeLessThan(20 * 1024 + 100);
    expect(big).toMatch(/diff truncated/);
  });
});
