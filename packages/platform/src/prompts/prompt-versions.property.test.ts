/**
 * Prompt versions under any sequence of commits, deactivations and activations: numbers run
 * 1..n with no gaps, `latest` is always the newest active version (absent while none),
 * `production` always points at an active version after an activate, and a chat prompt's
 * compile either fills every placeholder or names exactly the missing variables.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openTestStore } from "../../test/test-store.js";
import { createGroundwork } from "../create-groundwork.js";

const step = fc.oneof(
  fc.record({ kind: fc.constant("commit" as const) }),
  fc.record({ kind: fc.constant("deactivate" as const), at: fc.nat(20) }),
  fc.record({ kind: fc.constant("activate" as const), at: fc.nat(20) }),
);

describe("prompt versions (property)", () => {
  // 60 runs of up to 25 versioned writes: a networked store needs more than the default.
  it("keeps numbering, latest and production consistent", { timeout: 90_000 }, async () => {
    // One store for every run; each run works in an organization of its own.
    const store = await openTestStore();
    const groundwork = createGroundwork({ store });
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
          const org = (await groundwork.principal(`acme-${++run}`)).organizationId;
          const prompts = groundwork.prompts;
          await prompts.create(org, { name: "p", type: "text" });
          let count = 0;
          for (const s of steps) {
            if (s.kind === "commit") {
              await prompts.createVersion(org, "p", { prompt: `v${++count}` });
            } else if (count > 0) {
              const ref = String((s.at % count) + 1);
              if (s.kind === "deactivate") await prompts.deactivateVersion(org, "p", ref);
              else {
                const activated = await prompts.activateVersion(org, "p", ref);
                count = Math.max(count, activated.versionNumber);
                expect(activated.active).toBe(true);
                expect(activated.labels).toContain("production");
              }
            }
          }
          const versions = (await prompts.listVersions(org, "p", { page: 0, size: 100 })).items;
          expect(versions.map((v) => v.versionNumber)).toEqual(
            Array.from({ length: versions.length }, (_, i) => versions.length - i),
          );
          const newestActive = versions.find((v) => v.active);
          const prompt = await prompts.get(org, "p");
          expect(prompt.latestVersionNumber).toBe(newestActive?.versionNumber ?? null);
          const production = (await prompts.listLabels(org, "p")).find((l) => l.name === "production");
          if (production !== undefined) {
            expect(versions.some((v) => v.id === production.promptVersionId)).toBe(true);
          }
        }),
        { numRuns: 60 },
      );
    } finally {
      await groundwork.close();
      await store.close();
    }
  });

  it("compiles a chat prompt fully or names exactly the missing variables", async () => {
    const name = fc.constantFrom("a", "b", "c_1", "d.e", "f-g");
    const piece = fc.oneof(
      name.map((n) => `{{${n}}}`),
      name.map((n) => `{{ ${n} }}`),
      fc.constantFrom("text ", "{", "}", "{{", "}}", "{{ 1x }}", " "),
    );
    const content = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(""));
    const store = await openTestStore();
    const groundwork = createGroundwork({ store });
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(content, { minLength: 1, maxLength: 4 }),
          fc.dictionary(name, fc.oneof(fc.string(), fc.integer(), fc.boolean())),
          async (contents, variables) => {
            const org = (await groundwork.principal(`acme-${++run}`)).organizationId;
            await groundwork.prompts.create(org, {
              name: "c",
              type: "chat",
              prompt: contents.map((text) => ({ role: "user" as const, content: text })),
            });
            const declared = (await groundwork.prompts.getVersion(org, "c", "1")).variables;
            const missing = declared.filter((n) => !Object.hasOwn(variables, n)).sort();
            try {
              const compiled = (await groundwork.prompts.compile(org, "c", { variables })).compiled;
              expect(missing).toEqual([]);
              expect(Array.isArray(compiled) && compiled.length).toBe(contents.length);
            } catch (error) {
              expect(error).toMatchObject({ code: "missing_variables" });
              expect((error as Error).message.endsWith(missing.join(", "))).toBe(true);
            }
          },
        ),
        { numRuns: 100 },
      );
    } finally {
      await groundwork.close();
      await store.close();
    }
  });
});
