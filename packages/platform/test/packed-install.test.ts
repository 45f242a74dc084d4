/**
 * Publishability: the packages as npm would ship them, installed into a fresh app
 * outside the repository, imported and typechecked the way a user would (#16.5).
 * The packages must be built first (the root `pnpm test` builds).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOpenAIUpstream } from "@groundwork/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_CASES, modelEnv } from "../../../examples/example-cases.js";
import {
  compileInApp,
  createPackedApp,
  listTarball,
  packWorkspace,
  REPO_ROOT,
  readFromTarball,
  runInApp,
  typecheckInApp,
  workspaceVersionOf,
} from "./packed-app.js";

const NOTE = "# Packed\n\nConverted from **an installed tarball**.\n";

// Plain ESM, as a user without TypeScript would write it.
const MJS_APP = `
import { createGroundwork } from "@groundwork/platform";
import { openStore } from "@groundwork/store-sqlite";
import { INPUT_FORMATS } from "@groundwork/convert";
import { locateLanguage } from "@groundwork/convert/ocr";

const store = openStore({ file: ":memory:" });
const groundwork = createGroundwork({ store });
const content = new TextEncoder().encode(${JSON.stringify(NOTE)});
const result = await groundwork.conversion.convert(
  [{ kind: "bytes", filename: "note.md", mimeType: null, content }],
  {},
);
await groundwork.close();
store.close();
console.log(JSON.stringify({
  status: result.status,
  markdown: result.documents[0]?.mdContent,
  knowsMarkdown: INPUT_FORMATS.includes("markdown"),
  // The OCR data package resolves from where @groundwork/convert is installed.
  engData: locateLanguage("eng") !== null,
}));
`;

// The same with types: it must typecheck against the shipped .d.ts files.
const TS_APP = `
import { createGroundwork, type Groundwork } from "@groundwork/platform";
import { openStore, type Store } from "@groundwork/store-sqlite";
import type { ConversionResult } from "@groundwork/convert";

const store: Store = openStore({ file: ":memory:" });
const groundwork: Groundwork = createGroundwork({ store });
const content = new TextEncoder().encode(${JSON.stringify(NOTE)});
const result: ConversionResult = await groundwork.conversion.convert(
  [{ kind: "bytes", filename: "note.md", mimeType: null, content }],
  {},
);
await groundwork.close();
store.close();
const markdown: string | undefined = result.documents[0]?.mdContent;
console.log(JSON.stringify({ status: result.status, markdown }));
`;

// The typecheck must actually read the shipped types: this misuse has to fail.
const TS_MISUSE = `
import { createGroundwork } from "@groundwork/platform";
createGroundwork({ store: "not a store" });
`;

describe("packed packages installed into a fresh app", () => {
  const work = mkdtempSync(join(tmpdir(), "groundwork-pack-"));
  const app = join(work, "app");
  let tarballs = new Map<string, string>();

  beforeAll(async () => {
    const packDir = join(work, "tarballs");
    mkdirSync(packDir);
    mkdirSync(app);
    const packStart = performance.now();
    tarballs = await packWorkspace(packDir);
    const installStart = performance.now();
    await createPackedApp(
      app,
      tarballs,
      [
        "@groundwork/platform",
        "@groundwork/convert",
        "@groundwork/store-sqlite",
        // What the README's examples import besides.
        "@groundwork/scoring",
        "@groundwork/server",
      ],
      {
        // examples/plugins builds its plugin zip with jszip, as an app would.
        extraDependencies: { jszip: workspaceVersionOf("jszip", "examples") },
      },
    );
    const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
    // Visible in CI logs, so a slow install (a cold store, a native rebuild) is easy to spot.
    console.info(
      `packed in ${seconds(packStart, installStart)} s, installed in ${seconds(installStart, performance.now())} s`,
    );
  }, 240_000);

  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it("runs a plain ESM app that converts Markdown through createGroundwork", async () => {
    writeFileSync(join(app, "convert-note.mjs"), MJS_APP);
    const run = await runInApp(app, "convert-note.mjs");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      status: "SUCCESS",
      markdown: expect.stringContaining("Converted from **an installed tarball**."),
      knowsMarkdown: true,
      engData: true,
    });
  }, 60_000);

  it("typechecks a TypeScript app against the shipped types, compiles it and runs it with plain node", async () => {
    writeFileSync(join(app, "convert-note.ts"), TS_APP);
    const check = await typecheckInApp(app, ["convert-note.ts"]);
    expect(check.stdout + check.stderr).toBe("");
    expect(check.code).toBe(0);
    const compile = await compileInApp(app, ["convert-note.ts"]);
    expect(compile.code, compile.stdout + compile.stderr).toBe(0);
    const run = await runInApp(app, "convert-note.js");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      status: "SUCCESS",
      markdown: expect.stringContaining("Converted from **an installed tarball**."),
    });
  }, 90_000);

  it("fails the typecheck of a misuse, so the check above really read the shipped types", async () => {
    writeFileSync(join(app, "misuse.ts"), TS_MISUSE);
    const check = await typecheckInApp(app, ["misuse.ts"]);
    expect(check.code).not.toBe(0);
    expect(check.stdout).toMatch(/misuse\.ts\(3,.*TS2322/);
  }, 60_000);

  it("typechecks, compiles and runs every README example against the tarballs", async () => {
    const files = EXAMPLE_CASES.map(({ job }) => {
      copyFileSync(join(REPO_ROOT, "examples", job, "index.ts"), join(app, `example-${job}.ts`));
      return `example-${job}.ts`;
    });
    // The server example pulls in Hono's Node adapter, whose types need the DOM library.
    const check = await typecheckInApp(app, files, { lib: ["dom"] });
    expect(check.stdout + check.stderr).toBe("");
    const compile = await compileInApp(app, files, { lib: ["dom"] });
    expect(compile.code, compile.stdout + compile.stderr).toBe(0);
    const upstream = await startOpenAIUpstream({ models: ["gpt-4o-mini"] });
    try {
      for (const example of EXAMPLE_CASES) {
        upstream.reset();
        for (const reply of example.replies ?? []) upstream.enqueue(reply);
        const run = await runInApp(app, `example-${example.job}.js`, modelEnv(upstream));
        expect(run.code, `${example.job}: ${run.stderr}`).toBe(0);
        example.check(run.stdout, upstream);
      }
    } finally {
      await upstream.close();
    }
  }, 180_000);

  it("ships no tests or test helpers, and every entry point its package.json names", async () => {
    for (const [name, tarball] of tarballs) {
      const files = await listTarball(tarball);
      expect(
        files.filter((file) => /\.test\.|test-support|(^|\/)test\/|(^|\/)src\//.test(file)),
        name,
      ).toEqual([]);
      const pkg = JSON.parse(await readFromTarball(tarball, "package.json")) as PackedPackageJson;
      for (const target of entryPoints(pkg)) expect(files, `${name}: ${target}`).toContain(target);
      // pnpm rewrites workspace:* to the version; a leftover would not install from npm.
      expect(JSON.stringify(pkg.dependencies ?? {}), name).not.toContain("workspace:");
    }
  });
});

interface PackedPackageJson {
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
}

/** Every file path package.json points at (main, types, bin, each export condition). */
function entryPoints(pkg: PackedPackageJson): string[] {
  const paths = [pkg.main, pkg.types];
  if (typeof pkg.bin === "string") paths.push(pkg.bin);
  else paths.push(...Object.values(pkg.bin ?? {}));
  for (const target of Object.values(pkg.exports ?? {})) {
    paths.push(...(typeof target === "string" ? [target] : Object.values(target)));
  }
  return paths.filter((path): path is string => path !== undefined).map((path) => path.replace(/^\.\//, ""));
}
