/**
 * Runs one example the way a reader would (`node --import tsx examples/<job>/index.ts`
 * from the repository root) and collects what it printed. The examples import the
 * packages' built `dist`, so the repository must be built first (`pnpm test` does).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const repositoryRoot = fileURLToPath(new URL("../", import.meta.url));

export interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runExample(job: string, env: Record<string, string> = {}): Promise<ExampleRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", `examples/${job}/index.ts`], {
      cwd: repositoryRoot,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
