import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeTempDir, startServer } from "@groundwork/testkit";
import { describe, expect, it } from "vitest";

// These tests run the built CLI exactly as users do (`pnpm test` builds first).
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

function groundwork(args: string[]): { stdout: string; code: number } {
  try {
    return {
      stdout: execFileSync(process.execPath, [cli, ...args], { encoding: "utf8", stdio: "pipe" }),
      code: 0,
    };
  } catch (error) {
    const failed = error as { stdout: string; status: number };
    return { stdout: failed.stdout, code: failed.status };
  }
}

describe("groundwork serve", () => {
  it("bootstraps once, serves /health and /v1 with the printed key, and shuts down cleanly", async () => {
    const data = makeTempDir();
    try {
      const first = await startServer({ dataDir: data.path });
      expect(first.adminKey).toMatch(/^gw_/);
      const keyFile = join(data.path, "bootstrap-key");
      expect(readFileSync(keyFile, "utf8").trim()).toBe(first.adminKey);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);

      const health = await fetch(`${first.url}/health`);
      expect(await health.json()).toEqual({ status: "ok" });
      const authed = await fetch(`${first.url}/v1/me`, {
        headers: { Authorization: `Bearer ${first.adminKey}` },
      });
      expect(authed.status).toBe(200);
      expect(first.output()).not.toMatch(/"level":"error"/);

      expect(await first.stop()).toBe(0);
      // A clean close checkpoints the WAL and removes it.
      expect(existsSync(join(data.path, "groundwork.db-wal"))).toBe(false);

      const second = await startServer({ dataDir: data.path });
      expect(second.adminKey).toBeNull();
      const again = await fetch(`${second.url}/v1/me`, {
        headers: { Authorization: `Bearer ${first.adminKey}` },
      });
      expect(again.status).toBe(200);
      expect(await second.stop()).toBe(0);
    } finally {
      data.remove();
    }
  });
});

describe("groundwork keys", () => {
  it("creates, lists and revokes keys; the key is the last line of stdout", async () => {
    const data = makeTempDir();
    try {
      const created = groundwork([
        "keys",
        "create",
        "--data",
        data.path,
        "--org",
        "acme",
        "--role",
        "viewer",
        "--plan",
        "free",
      ]);
      expect(created.code).toBe(0);
      const key = created.stdout.trim().split("\n").at(-1) ?? "";
      expect(key).toMatch(/^gw_[A-Za-z0-9_-]{43}$/);

      const listed = groundwork(["keys", "list", "--data", data.path]);
      expect(listed.stdout).toContain("acme");
      expect(listed.stdout).toContain("viewer");
      expect(listed.stdout).not.toContain(key);

      const server = await startServer({ dataDir: data.path });
      try {
        // The data folder was not empty, so no bootstrap organization was created.
        expect(server.adminKey).toBeNull();
        const asViewer = await fetch(`${server.url}/v1/me`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        expect(asViewer.status).toBe(200);
        const verified = Date.now();

        expect(groundwork(["keys", "revoke", "--data", data.path, key]).code).toBe(0);
        // Revoked by another process: the server trusts a key it verified for up to a second
        // (VERIFIED_TTL_MS, store-rows), so the revocation shows once that second has passed.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, verified + 1_050 - Date.now())));
        const revoked = await fetch(`${server.url}/v1/me`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        expect(revoked.status).toBe(401);
        expect(groundwork(["keys", "revoke", "--data", data.path, key]).code).toBe(1);
      } finally {
        await server.stop();
      }
    } finally {
      data.remove();
    }
    // Four CLI processes and a server start: seconds each on a loaded two-core machine.
  }, 60_000);

  it("rejects bad usage with exit code 2", () => {
    const data = makeTempDir();
    try {
      expect(groundwork(["keys", "create", "--data", data.path, "--org", "x", "--role", "owner"]).code).toBe(
        2,
      );
      expect(groundwork(["frobnicate"]).code).toBe(2);
    } finally {
      data.remove();
    }
  });
});

describe("groundwork worker and serve --no-workers", () => {
  // Both need PostgreSQL (the run on PostgreSQL: store-postgres/test/multi-process-server.test.ts).
  it("are refused on SQLite, where serve runs the workers itself", () => {
    const data = makeTempDir();
    try {
      const env = { ...process.env, GROUNDWORK_DATABASE_URL: "" };
      const run = (args: string[]) => {
        try {
          execFileSync(process.execPath, [cli, ...args], { encoding: "utf8", stdio: "pipe", env });
          return { code: 0, stderr: "" };
        } catch (error) {
          const failed = error as { status: number; stderr: string };
          return { code: failed.status, stderr: failed.stderr };
        }
      };
      const worker = run(["worker", "--data", data.path]);
      expect(worker.code).toBe(2);
      expect(worker.stderr).toMatch(/groundwork worker needs GROUNDWORK_DATABASE_URL/);
      const serve = run(["serve", "--port", "0", "--data", data.path, "--no-workers"]);
      expect(serve.code).toBe(1);
      expect(serve.stderr).toMatch(/needs GROUNDWORK_DATABASE_URL/);
    } finally {
      data.remove();
    }
    // Two CLI processes: seconds each on a loaded two-core machine.
  }, 60_000);
});

describe("groundwork copy-to-postgres", () => {
  it("copies a data folder into a new PostgreSQL database, then refuses the same one again", async () => {
    const { startTestServer } = await import("../../store-postgres/test/embedded-server.js");
    const { fromPgPool, openPostgresStore } = await import("@groundwork/store-postgres");
    const pg = (await import("pg")).default;
    const run = (args: string[]) => {
      const result = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
      return { code: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    const data = makeTempDir();
    const server = await startTestServer();
    try {
      const created = run(["keys", "create", "--data", data.path, "--org", "acme", "--role", "admin"]);
      expect(created.code).toBe(0);
      const key = created.stdout.trim().split("\n").at(-1) ?? "";
      const url = await server.createDatabase("cli_copy");

      const copied = run(["copy-to-postgres", "--data", data.path, "--database-url", url]);
      expect(copied.stderr).toContain("Copied");
      expect(copied.code).toBe(0);
      expect(copied.stdout).toMatch(/^organizations\s+1\s+copied$/m);
      expect(copied.stdout).toMatch(/^api_keys\s+1\s+copied$/m);
      const store = await openPostgresStore({ client: fromPgPool(new pg.Pool({ connectionString: url })) });
      try {
        expect((await store.apiKeys.authenticate(key))?.organizationName).toBe("acme");
      } finally {
        await store.close();
      }

      const again = run(["copy-to-postgres", "--data", data.path, "--database-url", url]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/Nothing was copied\. The PostgreSQL database already holds data/);
      const missing = run(["copy-to-postgres", "--data", join(data.path, "absent"), "--database-url", url]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("No Groundwork database");
      expect(run(["copy-to-postgres", "--data", data.path]).code).toBe(2);
    } finally {
      await server.stop();
      data.remove();
    }
  }, 120_000);
});
