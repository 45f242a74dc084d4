/**
 * The console's static serving (PLATFORM.md §16) through `app.request()`: the index, deep links,
 * content types, the off switch, no path outside the console folder, and nothing in the built
 * files that reaches another origin or keeps the key anywhere but sessionStorage.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildConsole } from "../../test/console-support.js";
import { openTestStore } from "../../test/test-support.js";
import { type App, createApp } from "../app.js";
import { consoleEnabled } from "../config.js";

let dir: string;
let app: App;

beforeAll(async () => {
  dir = await buildConsole();
  app = createApp({ store: await openTestStore({ secret: "console-test-secret" }), consoleDir: dir });
});

describe("GET /console/", () => {
  it("serves index.html with the console's security headers", async () => {
    const response = await app.request("/console/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("content-security-policy")).toContain("connect-src 'self'");
    const html = await response.text();
    expect(html).toContain('<script type="module" src="/console/app.js"></script>');
    expect(html).toBe(readFileSync(join(dir, "index.html"), "utf8"));
  });

  it("redirects /console to /console/", async () => {
    const response = await app.request("/console");
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("/console/");
  });

  it("answers index.html for every deep link that is not a file", async () => {
    const index = await (await app.request("/console/")).text();
    for (const path of [
      "/console/convert",
      "/console/extractions/ext_123",
      "/console/knowledge-bases/kb_1?citation=chk_1",
      "/console/traces/trc_9/",
      "/console/annotation-queues/aq_1",
      "/console/no/such/page.html",
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toBe("text/html; charset=utf-8");
      expect(await response.text(), path).toBe(index);
    }
  });

  it("serves the assets with their content types", async () => {
    const script = await app.request("/console/app.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await script.text()).length).toBeGreaterThan(1000);
    const styles = await app.request("/console/styles.css");
    expect(styles.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await styles.text()).toBe(readFileSync(join(dir, "styles.css"), "utf8"));
  });

  it("never serves a file outside the console folder", async () => {
    const index = await (await app.request("/console/")).text();
    for (const path of [
      "/console/../package.json",
      "/console/..%2f..%2fpackage.json",
      "/console/%2e%2e/%2e%2e/package.json",
      "/console/..%5c..%5cpackage.json",
      "/console/%E0%A4%A",
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBeLessThan(500);
      if (response.status === 200) expect(await response.text(), path).toBe(index);
    }
  });

  it("does not touch the API's 404 for unknown /v1 paths", async () => {
    const response = await app.request("/v1/console");
    expect(response.status).toBe(401);
  });
});

describe("GROUNDWORK_CONSOLE", () => {
  it("0 turns the console off: /console/ and its deep links are 404 with the error envelope", async () => {
    const off = createApp({
      store: await openTestStore({ secret: "console-test-secret" }),
      console: false,
      consoleDir: dir,
    });
    for (const path of ["/console/", "/console", "/console/app.js", "/console/convert"]) {
      const response = await off.request(path);
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
  });

  it("is read from the environment: unset or 1 on, 0 off, anything else refused", () => {
    expect(consoleEnabled({})).toBe(true);
    expect(consoleEnabled({ GROUNDWORK_CONSOLE: "1" })).toBe(true);
    expect(consoleEnabled({ GROUNDWORK_CONSOLE: "0" })).toBe(false);
    expect(consoleEnabled({ GROUNDWORK_CONSOLE: " 0 " })).toBe(false);
    for (const bad of ["off", "false", "2", "yes"]) {
      expect(() => consoleEnabled({ GROUNDWORK_CONSOLE: bad })).toThrow(/GROUNDWORK_CONSOLE/);
    }
  });
});

describe("the built console", () => {
  const files = () =>
    ["index.html", "app.js", "styles.css"].map((name) => readFileSync(join(dir, name), "utf8"));

  it("names no other origin (no CDN, works offline)", () => {
    for (const text of files()) {
      expect(text).not.toMatch(/https?:\/\//i);
      expect(text).not.toMatch(/(?:src|href)\s*=\s*["']\/\//i);
      expect(text).not.toMatch(/@import/i);
    }
  });

  it("keeps the key in sessionStorage only: no localStorage, no cookies", () => {
    const script = files()[1] as string;
    expect(script).toContain("sessionStorage");
    expect(script).not.toContain("localStorage");
    expect(script).not.toContain("document.cookie");
  });
});
