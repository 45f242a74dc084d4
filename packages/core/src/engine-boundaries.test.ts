/**
 * Engines stay pure: they never import the database driver, the HTTP framework or
 * the Node HTTP server (DESIGN.md, "Dependencies point one way"). This test walks
 * every engine package's sources and manifest and fails on such an import.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ENGINES = [
  "core",
  "scoring",
  "evaluation",
  "observability",
  "convert",
  "gateway",
  "extract",
  "kb",
  "agents",
];
const FORBIDDEN = [
  /^better-sqlite3$/,
  /^sqlite-vec$/,
  /^hono(\/.*)?$/,
  /^@hono\//,
  /^(node:)?https?$/,
  /^@groundwork\/(store-sqlite|server)$/,
];
const packagesDir = fileURLToPath(new URL("../../", import.meta.url));

/** Every module specifier a source file imports, statically, dynamically or through require. */
export function importedSpecifiers(source: string): string[] {
  const patterns = [
    /\b(?:import|export)\s[^'"]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1] ?? ""));
}

export function forbiddenImports(source: string): string[] {
  return importedSpecifiers(source).filter((spec) => FORBIDDEN.some((rule) => rule.test(spec)));
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe("engine boundaries", () => {
  it("detects forbidden imports in every syntax (so the check below can fail)", () => {
    const source = `
      import Database from "better-sqlite3";
      import { Hono } from 'hono';
      import { createServer } from "node:http";
      export { x } from "@hono/node-server";
      const m = await import("http");
      const s = require("@groundwork/store-sqlite");
      import "sqlite-vec";
      import { z } from "zod";
      import { estimateTokens } from "@groundwork/core";
    `;
    expect(forbiddenImports(source)).toEqual([
      "better-sqlite3",
      "hono",
      "node:http",
      "@hono/node-server",
      "sqlite-vec",
      "http",
      "@groundwork/store-sqlite",
    ]);
  });

  const present = ENGINES.filter((name) => existsSync(join(packagesDir, name, "package.json")));

  it.each(present)("%s imports no database driver, HTTP framework or HTTP server", (name) => {
    const offenders = sourceFiles(join(packagesDir, name, "src")).flatMap((file) =>
      forbiddenImports(readFileSync(file, "utf8")).map((spec) => `${file}: ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it.each(present)("%s does not depend on them in package.json", (name) => {
    const manifest = JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const deps = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
    expect(deps.filter((dep) => FORBIDDEN.some((rule) => rule.test(dep)))).toEqual([]);
  });

  /**
   * Settings reach engines and the platform as arguments (the platform's typed
   * config); only the server and the tool server read the environment.
   */
  it.each([...present, "platform"])("%s never reads process.env", (name) => {
    const readers = sourceFiles(join(packagesDir, name, "src")).filter((file) =>
      /\bprocess\.env\b/.test(readFileSync(file, "utf8")),
    );
    expect(readers).toEqual([]);
  });

  it("the platform imports no HTTP framework, server or tool server", () => {
    const rules = [/^hono(\/.*)?$/, /^@hono\//, /^@groundwork\/(server|mcp|client)$/];
    const offenders = sourceFiles(join(packagesDir, "platform", "src")).flatMap((file) =>
      importedSpecifiers(readFileSync(file, "utf8"))
        .filter((spec) => rules.some((rule) => rule.test(spec)))
        .map((spec) => `${file}: ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
