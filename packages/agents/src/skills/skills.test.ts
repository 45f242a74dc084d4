import { createHash } from "node:crypto";
import fc from "fast-check";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { agentSkillBindings, parseSkillBinding } from "./skill-binding.js";
import { parseSkillFrontmatter, skillMdBody, splitFrontmatter } from "./skill-frontmatter.js";
import {
  sameSkillFiles,
  skillFileContentType,
  skillFileText,
  skillPackageFromFiles,
  skillPackageFromZip,
} from "./skill-package.js";
import { skillPathProblem } from "./skill-paths.js";

const md = (extra = "") => `---\nname: demo\ndescription: A demo\n${extra}---\nBody\n`;

function errorOf(fn: () => unknown): { status: number; code: string; param: string | null } {
  try {
    fn();
  } catch (error) {
    return error as { status: number; code: string; param: string | null };
  }
  throw new Error("expected a failure");
}

describe("frontmatter", () => {
  it("splits the block and keeps the allowed keys", () => {
    expect(splitFrontmatter("---\na: 1\n---\nrest")).toEqual({ yaml: "a: 1\n", body: "rest" });
    expect(splitFrontmatter("\uFEFF---\r\na: 1\r\n---\r\nrest")?.body).toBe("rest");
    expect(splitFrontmatter("no block")).toBeNull();
    expect(skillMdBody(md())).toBe("Body\n");
    const parsed = parseSkillFrontmatter(
      md("license: MIT\nallowed-tools: Read Grep\nmetadata:\n  owner: team\n"),
    );
    expect(parsed).toMatchObject({
      name: "demo",
      description: "A demo",
      frontmatter: { license: "MIT", "allowed-tools": "Read Grep", metadata: { owner: "team" } },
    });
  });

  it("refuses each wrong shape with the place in param", () => {
    const cases: Array<[string, string]> = [
      ["---\nname: demo\ndescription: d\n", "SKILL.md"],
      [
        `---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [${"*a, ".repeat(9)}*a]\nc: [${"*b, ".repeat(30)}*b]\n---\n`,
        "SKILL.md",
      ],
      ["---\nname: x\nname: y\ndescription: d\n---\n", "SKILL.md"],
      ["---\nname: 12\ndescription: d\n---\n", "SKILL.md:name"],
      ["---\nname: a--b\ndescription: d\n---\n", "SKILL.md:name"],
      ["---\nname: ok\ndescription: ''\n---\n", "SKILL.md:description"],
      ["---\nname: ok\ndescription: d\nhooks: {}\n---\n", "SKILL.md:hooks"],
      ["---\nname: ok\ndescription: d\nallowed-tools: [1]\n---\n", "SKILL.md:allowed-tools"],
    ];
    for (const [text, param] of cases) {
      const error = errorOf(() => parseSkillFrontmatter(text));
      expect(error, text).toMatchObject({ status: 400, code: "invalid_skill", param });
    }
  });

  it("never throws anything but a 400 invalid_skill on arbitrary frontmatter", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (yaml) => {
        try {
          parseSkillFrontmatter(`---\n${yaml}\n---\n`);
        } catch (error) {
          expect(error).toMatchObject({ status: 400, code: "invalid_skill" });
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("paths and bindings", () => {
  it("accepts relative paths and names every refusal", () => {
    expect(skillPathProblem("scripts/run.py")).toBeNull();
    expect(skillPathProblem("a b/.hidden")).toBeNull();
    for (const bad of ["", "/a", "C:/x", "a\\b", "../a", "a/./b", "a//b", "a/", "a\u0000", "x".repeat(256)]) {
      expect(skillPathProblem(bad), bad).not.toBeNull();
    }
  });

  it("parses binding strings and lists an agent's bindings in definition order", () => {
    expect(parseSkillBinding("ns:pdf@prod")).toEqual({
      binding: "ns:pdf@prod",
      qualifiedName: "ns:pdf",
      namespace: "ns",
      name: "pdf",
      ref: "prod",
    });
    expect(parseSkillBinding("pdf").ref).toBeNull();
    for (const bad of ["Pdf", "a:b:c", "a@", "a@ b", ":a", "a-"]) {
      expect(
        errorOf(() => parseSkillBinding(bad)),
        bad,
      ).toMatchObject({ status: 400, param: "name" });
    }
    const bindings = agentSkillBindings({
      name: "a",
      skills: [{ name: "x", ref: "2" }, { name: "ns:y" }],
      tools: [{ type: "platform.todo" }, { type: "platform.skill", skills: ["z@prod", "w"] }],
    });
    expect(bindings.map((b) => [b.binding, b.source, b.qualifiedName, b.ref])).toEqual([
      ["x@2", "skills", "x", "2"],
      ["ns:y", "skills", "ns:y", null],
      ["z@prod", "platform.skill", "z", "prod"],
      ["w", "platform.skill", "w", null],
    ]);
  });
});

describe("packages", () => {
  it("sorts files, hashes them and totals their sizes", () => {
    const pkg = skillPackageFromFiles({ "b.txt": "bb", "SKILL.md": md(), "a/c.txt": "c" });
    expect(pkg.files.map((f) => f.path)).toEqual(["SKILL.md", "a/c.txt", "b.txt"]);
    expect(pkg.totalSize).toBe(md().length + 3);
    expect(pkg.files[2]?.sha256).toBe(createHash("sha256").update("bb").digest("hex"));
    const same = skillPackageFromFiles({ "SKILL.md": md(), "a/c.txt": "c", "b.txt": "bb" });
    expect(sameSkillFiles(pkg.files, same.files)).toBe(true);
    const other = skillPackageFromFiles({ "SKILL.md": md(), "a/c.txt": "c", "b.txt": "bx" });
    expect(sameSkillFiles(pkg.files, other.files)).toBe(false);
  });

  it("strips one top-level folder of a zip, and only when SKILL.md is under it", async () => {
    const zip = new JSZip();
    zip.file("top/SKILL.md", md());
    zip.file("top/x/y.txt", "y");
    const pkg = await skillPackageFromZip(
      await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" }),
    );
    expect(pkg.files.map((f) => f.path)).toEqual(["SKILL.md", "x/y.txt"]);
    const nested = new JSZip();
    nested.file("a/b/SKILL.md", md());
    await expect(
      skillPackageFromZip(await nested.generateAsync({ type: "uint8array" })),
    ).rejects.toMatchObject({
      status: 400,
      param: "SKILL.md",
    });
  });

  it("types files by extension and content", () => {
    const text = new TextEncoder().encode("hello");
    expect(skillFileContentType("a.MD", text)).toBe("text/markdown; charset=utf-8");
    expect(skillFileContentType("a.py", text)).toBe("text/plain; charset=utf-8");
    expect(skillFileContentType("a.bin", new Uint8Array([0xff, 0xfe]))).toBe("application/octet-stream");
    expect(skillFileText(new Uint8Array([104, 0]))).toBeNull();
  });
});
