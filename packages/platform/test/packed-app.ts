/**
 * Packs the workspace's packages as npm would publish them and installs them into
 * a fresh app, so a test can prove that `exports`, `types` and dependencies work
 * for a user who has only the tarballs — plain Node, no tsx, no workspace links.
 *
 * Lives in test/, not src/, so it never reaches a package's dist or tarball.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** pnpm through npx, as the README tells users to run it (corepack cannot fetch pnpm here). */
const PNPM = ["npx", "-y", "pnpm@10"] as const;

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Runs a command without a shell; a missing executable rejects (a test must fail, not skip). */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: options.timeoutMs ?? 120_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (code, signal) => {
      resolve({
        code: code ?? (signal === null ? 1 : 128),
        stdout,
        stderr: signal === null ? stderr : `${stderr}\n[killed by ${signal}]`,
      });
    });
  });
}

async function mustRun(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<CommandResult> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0) {
    throw new Error(
      `\`${[command, ...args].join(" ")}\` in ${options.cwd} exited ${result.code}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
}

/** The workspace's publishable packages (packages/* that are not private). */
export function workspacePackages(): { name: string; version: string; dir: string }[] {
  const root = join(REPO_ROOT, "packages");
  return readdirSync(root)
    .filter((entry) => existsSync(join(root, entry, "package.json")))
    .map((entry) => {
      const pkg = JSON.parse(readFileSync(join(root, entry, "package.json"), "utf8")) as PackageJson;
      return { name: pkg.name, version: pkg.version, dir: join(root, entry), private: pkg.private === true };
    })
    .filter((pkg) => !pkg.private)
    .map(({ name, version, dir }) => ({ name, version, dir }));
}

/**
 * `pnpm pack`s every @groundwork/* package into `outDir` (pnpm rewrites `workspace:*`
 * to the real version, and runs each package's prepack/postpack) and returns
 * package name → tarball path. The packages must be built (dist) first.
 */
export async function packWorkspace(outDir: string): Promise<Map<string, string>> {
  const packages = workspacePackages();
  for (const pkg of packages) {
    if (!existsSync(join(pkg.dir, "dist")))
      throw new Error(`${pkg.name} has no dist: run \`pnpm build\` first`);
  }
  // One recursive pack is a single pnpm start-up instead of one per package.
  await mustRun(
    PNPM[0],
    [...PNPM.slice(1), "-r", "--filter", "./packages/*", "pack", "--pack-destination", outDir],
    {
      cwd: REPO_ROOT,
    },
  );
  const tarballs = new Map<string, string>();
  for (const pkg of packages) {
    // npm's tarball name: scope without "@", "/" as "-".
    const file = join(outDir, `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.version}.tgz`);
    if (!existsSync(file)) throw new Error(`pnpm pack wrote no tarball for ${pkg.name} (expected ${file})`);
    tarballs.set(pkg.name, file);
  }
  return tarballs;
}

/** The entries of a tarball, without npm's leading `package/`. */
export async function listTarball(tarball: string): Promise<string[]> {
  const { stdout } = await mustRun("tar", ["-tzf", tarball], { cwd: REPO_ROOT });
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.replace(/^package\//, ""));
}

/** One file of a tarball as text (e.g. the packed `package.json`, with versions rewritten). */
export async function readFromTarball(tarball: string, path: string): Promise<string> {
  const { stdout } = await mustRun("tar", ["-xzOf", tarball, `package/${path}`], { cwd: REPO_ROOT });
  return stdout;
}

/**
 * The version of a package installed in the workspace (at the root, or in the workspace folder
 * `from` that depends on it), so the app asks the store for the same one.
 */
export function workspaceVersionOf(name: string, from = "."): string {
  const file = join(REPO_ROOT, from, "node_modules", name, "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as PackageJson).version;
}

async function storeDir(): Promise<string> {
  const { stdout } = await mustRun(PNPM[0], [...PNPM.slice(1), "store", "path"], { cwd: REPO_ROOT });
  return stdout.trim();
}

/**
 * The workspace lockfile without its importers. pnpm prefers versions a lockfile already
 * has, so the app gets exactly the third-party versions the workspace tested and the store
 * holds. Without it pnpm picks the newest in range: tarballs the store lacks, and a new
 * dependency graph under better-sqlite3 that misses the side-effects cache and rebuilds
 * it from source (measured: 3 minutes instead of 11 seconds).
 */
function seedLockfile(): string {
  const lockfile = readFileSync(join(REPO_ROOT, "pnpm-lock.yaml"), "utf8");
  const importers = lockfile.indexOf("\nimporters:\n");
  const packages = lockfile.indexOf("\npackages:\n");
  if (importers < 0 || packages < importers) throw new Error("unexpected pnpm-lock.yaml layout");
  return `${lockfile.slice(0, importers)}\nimporters:\n\n  .: {}\n${lockfile.slice(packages)}`;
}

export interface CreatePackedAppOptions {
  /** More packages for the app (name → range), e.g. a library an example uses. */
  extraDependencies?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Writes a fresh `"type": "module"` app in `dir` that depends on `dependencies` (names of
 * @groundwork packages) as `file:` tarballs, and installs it with pnpm. `dir` should be
 * outside the repository (os.tmpdir()) so Node cannot fall back to the workspace's node_modules.
 */
export async function createPackedApp(
  dir: string,
  tarballs: Map<string, string>,
  dependencies: string[],
  options: CreatePackedAppOptions = {},
): Promise<void> {
  const fileSpec = (name: string) => {
    const tarball = tarballs.get(name);
    if (tarball === undefined) throw new Error(`no tarball for ${name}`);
    return `file:${tarball}`;
  };
  const app = {
    name: "groundwork-packed-app",
    private: true,
    type: "module",
    dependencies: Object.fromEntries(dependencies.map((name) => [name, fileSpec(name)])),
    // typecheckInApp needs Node's types; the workspace's own version is already in the store.
    devDependencies: { "@types/node": workspaceVersionOf("@types/node"), ...options.extraDependencies },
    pnpm: {
      // Every @groundwork name, so a transitive workspace dependency (platform → core)
      // comes from its tarball and never from the registry, where it may not exist.
      overrides: Object.fromEntries([...tarballs.keys()].map((name) => [name, fileSpec(name)])),
      onlyBuiltDependencies: ["better-sqlite3", "esbuild"],
    },
  };
  await writeFile(join(dir, "package.json"), `${JSON.stringify(app, null, 2)}\n`);
  await writeFile(join(dir, "pnpm-lock.yaml"), seedLockfile());
  // The workspace's store (where CI has just installed the same third-party packages,
  // and where better-sqlite3's built binary sits in the side-effects cache).
  const store = await storeDir();
  await mustRun(PNPM[0], [...PNPM.slice(1), "install", "--prefer-offline", "--store-dir", store], {
    cwd: dir,
    timeoutMs: options.timeoutMs ?? 300_000,
  });
}

/** `node <file>` in the app: plain Node, no tsx, no loaders. */
export function runInApp(dir: string, file: string, env?: Record<string, string>): Promise<CommandResult> {
  return runCommand(process.execPath, [file], { cwd: dir, ...(env === undefined ? {} : { env }) });
}

/** What a consumer's strict NodeNext project would use; skipLibCheck off so our .d.ts files are checked too. */
const TSC_FLAGS = [
  "--strict",
  "--module",
  "nodenext",
  "--moduleResolution",
  "nodenext",
  "--target",
  "es2022",
  // No DOM: fetch, AbortSignal and friends must come from @types/node, as in a server app.
  "--lib",
  "es2023",
  "--types",
  "node",
  "--skipLibCheck",
  "false",
] as const;

export interface TscOptions {
  /**
   * Libraries beyond es2023. An app of `@groundwork/server` needs `dom`: Hono's Node
   * adapter names web types (`RequestInfo`) that @types/node does not declare.
   */
  lib?: readonly string[];
}

function tsc(dir: string, args: readonly string[], options: TscOptions = {}): Promise<CommandResult> {
  const compiler = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
  const flags = TSC_FLAGS.map((flag) =>
    flag === "es2023" ? ["es2023", ...(options.lib ?? [])].join(",") : flag,
  );
  return runCommand(process.execPath, [compiler, ...flags, ...args], { cwd: dir });
}

/** Typechecks `files` (paths relative to the app) against the types the tarballs ship. */
export function typecheckInApp(dir: string, files: string[], options?: TscOptions): Promise<CommandResult> {
  return tsc(dir, ["--noEmit", ...files], options);
}

/** Compiles `files` to .js beside them, so a TypeScript example can then run with plain node. */
export function compileInApp(dir: string, files: string[], options?: TscOptions): Promise<CommandResult> {
  return tsc(dir, files, options);
}
