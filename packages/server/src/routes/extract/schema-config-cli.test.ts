/** `groundwork schema-config set`, run through the built CLI as support runs it (`pnpm test` builds first). */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore } from "@groundwork/store-sqlite";
import { makeTempDir } from "@groundwork/testkit";
import { describe, expect, it } from "vitest";
import { bearer } from "../../../test/test-support.js";
import { createApp } from "../../app.js";
import { databaseFile } from "../../config.js";

const cli = fileURLToPath(new URL("../../../dist/cli.js", import.meta.url));

function groundwork(args: string[]): { stdout: string; stderr: string; code: number } {
  try {
    const stdout = execFileSync(process.execPath, [cli, ...args], { encoding: "utf8", stdio: "pipe" });
    return { stdout, stderr: "", code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; status: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.status };
  }
}

describe("groundwork schema-config set", () => {
  it("validates and stores a version's extractionConfig, which the API then shows read-only", async () => {
    const data = makeTempDir();
    try {
      const store = openStore({ file: databaseFile(data.path) });
      const organization = await store.organizations.create("acme", "enterprise");
      const schema = await store.schemas.create(organization.id, { name: "Invoice" });
      const version = await store.schemas.commitVersion(schema.id, { jsonSchema: { type: "object" } });
      await store.close();

      const config = {
        validation: {
          properties: { lines: { keyFields: ["sku"], fieldHints: { sku: { scoring: "literal" } } } },
        },
        rules: [{ id: "total", type: "RANGE", field: "/total", min: 0 }],
      };
      const good = join(data.path, "config.json");
      writeFileSync(good, JSON.stringify(config));
      const set = groundwork([
        "schema-config",
        "set",
        "--data",
        data.path,
        "--version",
        version.id,
        "--file",
        good,
      ]);
      expect(set.code).toBe(0);
      expect(JSON.parse(set.stdout)).toEqual(config);

      const reopened = openStore({ file: databaseFile(data.path) });
      try {
        const key = (await reopened.apiKeys.create({ organizationId: organization.id, role: "viewer" })).key;
        const shown = await createApp({ store: reopened }).request(
          `/v1/schemas/${schema.id}/versions/${version.id}`,
          {
            headers: bearer(key),
          },
        );
        expect(((await shown.json()) as { extractionConfig: unknown }).extractionConfig).toEqual(config);
      } finally {
        await reopened.close();
      }

      const bad = join(data.path, "bad.json");
      writeFileSync(bad, JSON.stringify({ validation: { enabled: "yes" } }));
      const invalid = groundwork([
        "schema-config",
        "set",
        "--data",
        data.path,
        "--version",
        version.id,
        "--file",
        bad,
      ]);
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toContain("validation.enabled must be a boolean");

      const notJson = join(data.path, "not.json");
      writeFileSync(notJson, "{oops");
      expect(
        groundwork(["schema-config", "set", "--data", data.path, "--version", version.id, "--file", notJson])
          .code,
      ).toBe(1);
      const unknown = groundwork([
        "schema-config",
        "set",
        "--data",
        data.path,
        "--version",
        "scv_nope",
        "--file",
        good,
      ]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("No schema version scv_nope");

      // the config that failed validation was not stored
      const after = openStore({ file: databaseFile(data.path) });
      expect((await after.schemas.versionById(version.id))?.extractionConfig).toEqual(config);
      await after.close();
    } finally {
      data.remove();
    }
  });

  it("exits 2 on usage errors", () => {
    const data = makeTempDir();
    try {
      expect(groundwork(["schema-config", "set", "--data", data.path, "--file", "x.json"]).code).toBe(2);
      expect(groundwork(["schema-config", "set", "--data", data.path, "--version", "scv_1"]).code).toBe(2);
      expect(groundwork(["schema-config", "set", "--bogus"]).code).toBe(2);
      expect(groundwork(["schema-config", "get"]).code).toBe(2);
    } finally {
      data.remove();
    }
  });
});
