/** The environment's share of the platform config. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, platformConfigFromEnv } from "./config.js";

describe("platformConfigFromEnv", () => {
  it("maps GROUNDWORK_PAUSE_WINDOW_SECONDS to the agents' pause window and refuses bad values", () => {
    expect(platformConfigFromEnv({}).agents).toBeUndefined();
    expect(platformConfigFromEnv({ GROUNDWORK_PAUSE_WINDOW_SECONDS: "5" }).agents).toEqual({
      pauseTimeoutMs: 5000,
    });
    expect(() => platformConfigFromEnv({ GROUNDWORK_PAUSE_WINDOW_SECONDS: "0" })).toThrow(
      /GROUNDWORK_PAUSE_WINDOW_SECONDS/,
    );
  });

  it("maps GROUNDWORK_JUDGE_MODEL to the auto-mode judge's model; unset or blank leaves the run's model", () => {
    expect(platformConfigFromEnv({ GROUNDWORK_JUDGE_MODEL: "gw-judge" }).agents).toEqual({
      judgeModel: "gw-judge",
    });
    expect(platformConfigFromEnv({ GROUNDWORK_JUDGE_MODEL: "  " }).agents).toBeUndefined();
    expect(
      platformConfigFromEnv({ GROUNDWORK_JUDGE_MODEL: "openai/gpt-x", GROUNDWORK_PAUSE_WINDOW_SECONDS: "2" })
        .agents,
    ).toEqual({ judgeModel: "openai/gpt-x", pauseTimeoutMs: 2000 });
  });

  it("maps GROUNDWORK_QUEUE_LOCK_SECONDS to the annotation-queue lock and refuses bad values", () => {
    expect(platformConfigFromEnv({}).queues).toBeUndefined();
    expect(platformConfigFromEnv({ GROUNDWORK_QUEUE_LOCK_SECONDS: "1" }).queues).toEqual({ lockSeconds: 1 });
    expect(platformConfigFromEnv({ GROUNDWORK_QUEUE_LOCK_SECONDS: "900" }).queues).toEqual({
      lockSeconds: 900,
    });
    for (const bad of ["0", "-5", "1.5", "abc"]) {
      expect(() => platformConfigFromEnv({ GROUNDWORK_QUEUE_LOCK_SECONDS: bad })).toThrow(
        /GROUNDWORK_QUEUE_LOCK_SECONDS/,
      );
    }
  });

  it("maps GROUNDWORK_CHAT_URL to chatUrl without trailing slashes", () => {
    expect(platformConfigFromEnv({}).chatUrl).toBeUndefined();
    expect(platformConfigFromEnv({ GROUNDWORK_CHAT_URL: "https://chat.example/" }).chatUrl).toBe(
      "https://chat.example",
    );
  });

  it("selects PostgreSQL with GROUNDWORK_DATABASE_URL and refuses another scheme without echoing it", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "gw-cfg-"));
    try {
      const env = { GROUNDWORK_SECRET: "a-master-secret-of-enough-length" };
      expect(loadConfig({ dataDir }, env).database).toEqual({
        kind: "sqlite",
        file: join(dataDir, "groundwork.db"),
      });
      expect(loadConfig({ dataDir }, { ...env, GROUNDWORK_DATABASE_URL: "" }).database.kind).toBe("sqlite");
      for (const url of ["postgres://gw:pw@db.internal/groundwork", "postgresql://db.internal:5433/gw"]) {
        expect(loadConfig({ dataDir }, { ...env, GROUNDWORK_DATABASE_URL: url }).database).toEqual({
          kind: "postgres",
          url,
          poolSize: 10,
        });
      }
      expect(
        loadConfig(
          { dataDir },
          { ...env, GROUNDWORK_DATABASE_URL: "postgres://db/gw", GROUNDWORK_DATABASE_POOL_SIZE: "3" },
        ).database,
      ).toMatchObject({ poolSize: 3 });
      const refused = (url: string) => () =>
        loadConfig({ dataDir }, { ...env, GROUNDWORK_DATABASE_URL: url });
      expect(refused("mysql://root:s3cret@db/gw")).toThrow(/scheme "mysql:" is not supported.*postgres:\/\//);
      expect(refused("mysql://root:s3cret@db/gw")).not.toThrow(/s3cret/);
      expect(refused("db.internal/groundwork")).toThrow(/Invalid GROUNDWORK_DATABASE_URL/);
      expect(refused("postgres:///groundwork")).toThrow(/names no host/);
      expect(() =>
        loadConfig(
          { dataDir },
          { ...env, GROUNDWORK_DATABASE_URL: "postgres://db/gw", GROUNDWORK_DATABASE_POOL_SIZE: "0" },
        ),
      ).toThrow(/GROUNDWORK_DATABASE_POOL_SIZE/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("turns the workers off only on PostgreSQL, by flag or GROUNDWORK_WORKERS=0, and reads the job lease", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "gw-cfg-"));
    try {
      const env = { GROUNDWORK_SECRET: "a-master-secret-of-enough-length" };
      const pg = { ...env, GROUNDWORK_DATABASE_URL: "postgres://db/gw" };
      expect(loadConfig({ dataDir }, env).workers).toBe(true);
      expect(loadConfig({ dataDir, noWorkers: true }, pg).workers).toBe(false);
      expect(loadConfig({ dataDir }, { ...pg, GROUNDWORK_WORKERS: "0" }).workers).toBe(false);
      expect(loadConfig({ dataDir }, { ...pg, GROUNDWORK_WORKERS: "1" }).workers).toBe(true);
      expect(() => loadConfig({ dataDir }, { ...pg, GROUNDWORK_WORKERS: "no" })).toThrow(
        /GROUNDWORK_WORKERS/,
      );
      expect(() => loadConfig({ dataDir, noWorkers: true }, env)).toThrow(/needs GROUNDWORK_DATABASE_URL/);
      expect(loadConfig({ dataDir }, { ...env, GROUNDWORK_JOB_LEASE_SECONDS: "3" }).platform.workers).toEqual(
        {
          leaseMs: 3000,
        },
      );
      expect(() => loadConfig({ dataDir }, { ...env, GROUNDWORK_JOB_LEASE_SECONDS: "0" })).toThrow(
        /GROUNDWORK_JOB_LEASE_SECONDS/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("defaults chatUrl to the server's own origin", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "gw-cfg-"));
    try {
      const env = { GROUNDWORK_SECRET: "a-master-secret-of-enough-length" };
      expect(loadConfig({ dataDir, port: "9090" }, env).platform.chatUrl).toBe("http://127.0.0.1:9090");
      expect(
        loadConfig({ dataDir, port: "9090" }, { ...env, GROUNDWORK_CHAT_URL: "https://chat.example" })
          .platform.chatUrl,
      ).toBe("https://chat.example");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("maps GROUNDWORK_CHAT_PRICES (JSON) to the built-in chat price table and refuses bad tables", () => {
    expect(platformConfigFromEnv({}).chatPrices).toBeUndefined();
    expect(
      platformConfigFromEnv({
        GROUNDWORK_CHAT_PRICES:
          '{"gw-chat": {"inputPerMillion": 2, "outputPerMillion": 8, "cachedInputPerMillion": 0.5}, "*": {"inputPerMillion": 0, "outputPerMillion": 0}}',
      }).chatPrices,
    ).toEqual({
      "gw-chat": { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
      "*": { inputPerMillion: 0, outputPerMillion: 0 },
    });
    expect(platformConfigFromEnv({ GROUNDWORK_CHAT_PRICES: "{}" }).chatPrices).toEqual({});
    for (const bad of [
      "not json",
      "[]",
      '{"m": 3}',
      '{"m": {"inputPerMillion": 1}}',
      '{"m": {"inputPerMillion": -1, "outputPerMillion": 1}}',
      '{"m": {"inputPerMillion": "1", "outputPerMillion": 1}}',
    ]) {
      expect(() => platformConfigFromEnv({ GROUNDWORK_CHAT_PRICES: bad }), bad).toThrow(
        /GROUNDWORK_CHAT_PRICES/,
      );
    }
  });

  it("maps GROUNDWORK_WEB_SEARCH_URL and GROUNDWORK_WEB_SEARCH_API_KEY to the web search provider", () => {
    expect(platformConfigFromEnv({}).webSearch).toBeNull();
    expect(
      platformConfigFromEnv({ GROUNDWORK_WEB_SEARCH_URL: "https://search.example/api" }).webSearch,
    ).toEqual({
      url: "https://search.example/api",
      apiKey: null,
    });
    expect(
      platformConfigFromEnv({
        GROUNDWORK_WEB_SEARCH_URL: "https://search.example/api",
        GROUNDWORK_WEB_SEARCH_API_KEY: "sk-search",
      }).webSearch,
    ).toEqual({ url: "https://search.example/api", apiKey: "sk-search" });
    expect(() => platformConfigFromEnv({ GROUNDWORK_WEB_SEARCH_URL: "ftp://x" })).toThrow(
      /GROUNDWORK_WEB_SEARCH_URL/,
    );
  });
});
