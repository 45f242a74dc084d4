/**
 * Starts one of this package's worker modules on a thread, from the sources (tests, tsx) and
 * from the build alike: tsup emits each worker as an entry of its own beside `dist/index.js`
 * (tsup.config.ts), and from the sources the module is loaded through tsx's loader.
 */
import { Worker } from "node:worker_threads";

/** `name` is the module's file name without extension, e.g. `kb-pack-reader-worker`. */
export function startWorker(name: string, workerData: unknown): Worker {
  const here = import.meta.url;
  const url = new URL(`./${name}${here.endsWith(".ts") ? ".ts" : ".js"}`, here);
  if (url.pathname.endsWith(".ts")) {
    const api = import.meta.resolve("tsx/esm/api");
    return new Worker(
      `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`,
      { eval: true, workerData },
    );
  }
  return new Worker(url, { workerData });
}
