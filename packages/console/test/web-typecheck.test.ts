/**
 * The browser sources (web/) need the DOM library, which the repository's Node-only typecheck
 * leaves out on purpose (it would hide Node-vs-DOM type mistakes in the engines). They are
 * typechecked here, with their own tsconfig, so `pnpm test` fails on a type error in them.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

it("the console's browser sources typecheck with the DOM library", () => {
  const tsc = fileURLToPath(new URL("../../../node_modules/typescript/bin/tsc", import.meta.url));
  const project = fileURLToPath(new URL("../web/tsconfig.json", import.meta.url));
  const result = spawnSync(process.execPath, [tsc, "-p", project, "--noEmit"], { encoding: "utf8" });
  expect(result.stdout + result.stderr).toBe("");
  expect(result.status).toBe(0);
}, 60_000);
