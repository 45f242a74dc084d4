/** Skills through the library: import outcomes, storage refusal, plugin-managed skills, versions and resolution. */
import { skillPackageFromFiles } from "@groundwork/agents";
import { billingRequired, type Principal } from "@groundwork/core";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork, type Groundwork } from "../create-groundwork.js";
import type { PlatformStore } from "../store-port.js";

let store: PlatformStore;
let groundwork: Groundwork;
let principal: Principal;
const md = (name: string, description = `${name} skill`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody\n`;

beforeEach(async () => {
  store = await openTestStore();
  groundwork = createGroundwork({ store });
  principal = await groundwork.principal("acme", "member");
});
afterEach(async () => await store.close());

describe("SkillService", () => {
  it("imports, versions, answers unchanged, and stores files readable as bytes and text", async () => {
    const skills = groundwork.skills;
    const first = await skills.import(principal, { files: { "SKILL.md": md("a"), "x.txt": "x" } });
    expect(first.result).toBe("created");
    expect((await skills.import(principal, { files: { "SKILL.md": md("a"), "x.txt": "x" } })).result).toBe(
      "unchanged",
    );
    const second = await skills.import(principal, { files: { "SKILL.md": md("a"), "x.txt": "y" } });
    expect(second).toMatchObject({ result: "versioned", version: { versionNumber: 2 } });
    const file = await skills.readFile(principal.organizationId, "a", "2", "x.txt");
    expect(file).toMatchObject({ text: "y", contentType: "text/plain; charset=utf-8", size: 1 });
    expect((await skills.versionFiles(second.version.id)).map((f) => f.path)).toEqual(["SKILL.md", "x.txt"]);
    expect(await store.skills.storedBytes(principal.organizationId)).toBe(2 * (md("a").length + 1));
  });

  it("asks the allowance before writing and writes nothing when storage is exhausted", async () => {
    const asked: number[] = [];
    const limited = createGroundwork({
      store,
      allowance: {
        ownProvidersRefusal: () => null,
        checkUsage: () => {},
        checkStorage: (_organizationId, addedBytes) => {
          asked.push(addedBytes);
          if (addedBytes > 100) throw billingRequired("Storage is used up", { code: "storage_exhausted" });
        },
      },
    });
    await limited.skills.import(principal, { files: { "SKILL.md": md("small") } });
    await expect(
      limited.skills.import(principal, { files: { "SKILL.md": md("big"), "b.txt": "b".repeat(200) } }),
    ).rejects.toMatchObject({ status: 402, code: "storage_exhausted" });
    expect(asked).toEqual([md("small").length, md("big").length + 200]);
    expect((await limited.skills.list(principal.organizationId, { page: { page: 0, size: 20 } })).total).toBe(
      1,
    );
  });

  it("keeps plugin skills out of hand imports and deletes; commitPackage serves plugins", async () => {
    const skills = groundwork.skills;
    const pkg = skillPackageFromFiles({ "SKILL.md": md("tool") });
    const installed = await skills.commitPackage(principal.organizationId, pkg, {
      namespace: "kit",
      pluginId: "plg_1",
      source: "plugin",
    });
    expect(installed).toMatchObject({
      result: "created",
      skill: { qualifiedName: "kit:tool", pluginId: "plg_1" },
    });
    // Same name in the null namespace is no clash.
    expect((await skills.import(principal, { files: { "SKILL.md": md("tool") } })).skill.qualifiedName).toBe(
      "tool",
    );
    await expect(skills.delete(principal.organizationId, "kit:tool")).rejects.toThrow(
      expect.objectContaining({ status: 409, code: "managed_by_plugin" }),
    );
    await skills.delete(principal.organizationId, "kit:tool", { managed: true });
    expect(
      (
        await skills.resolveBindings(principal.organizationId, [
          { binding: "kit:tool", qualifiedName: "kit:tool", namespace: "kit", name: "tool", ref: null },
        ])
      )[0],
    ).toMatchObject({ status: "skill_not_found", resolved: null });
  });

  it("keeps latest on the newest active version through any activate/deactivate sequence", async () => {
    // One store for every run; each run works in an organization of its own.
    const s = await openTestStore();
    const g = createGroundwork({ store: s });
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.constant({ op: "import" as const }),
              fc.record({ op: fc.constantFrom("deactivate" as const, "activate" as const), n: fc.nat(6) }),
            ),
            {
              maxLength: 12,
            },
          ),
          async (ops) => {
            const p = await g.principal(`acme-${++run}`, "member");
            let imports = 0;
            await g.skills.import(p, { files: { "SKILL.md": md("p"), "v.txt": "0" } });
            for (const op of ops) {
              const count = (
                await s.skills.listVersions(
                  (await s.skills.byQualifiedName(p.organizationId, "p"))?.id ?? "",
                  {
                    page: 0,
                    size: 100,
                  },
                )
              ).total;
              if (op.op === "import") {
                imports++;
                await g.skills.import(p, { files: { "SKILL.md": md("p"), "v.txt": String(imports) } });
              } else if (op.n >= 1 && op.n <= count) {
                if (op.op === "deactivate")
                  await g.skills.deactivateVersion(p.organizationId, "p", String(op.n));
                else await g.skills.activateVersion(p.organizationId, "p", String(op.n));
              }
            }
            const skill = await s.skills.byQualifiedName(p.organizationId, "p");
            const versions = (await s.skills.listVersions(skill?.id ?? "", { page: 0, size: 100 })).items;
            const newestActive = versions.find((v) => v.active) ?? null;
            expect(skill?.latestVersionId ?? null).toBe(newestActive?.id ?? null);
            const resolved = (
              await g.skills.resolveBindings(p.organizationId, [
                { binding: "p", qualifiedName: "p", namespace: null, name: "p", ref: null },
              ])
            )[0];
            expect(resolved?.resolved?.versionId ?? null).toBe(newestActive?.id ?? null);
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      await g.close();
      await s.close();
    }
  });
});
