import { describe, expect, it } from "vitest";
import { createLogger, redact } from "./logger.js";

describe("logger", () => {
  it("writes JSON lines at or above its level", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "warn", write: (l) => lines.push(l), now: () => new Date(0) });
    logger.info("hidden");
    logger.warn("shown", { n: 1 });
    expect(lines).toEqual(['{"time":"1970-01-01T00:00:00.000Z","level":"warn","msg":"shown","n":1}\n']);
  });

  it("redacts fields named like secrets", () => {
    expect(redact({ apiKey: "k", Authorization: "Bearer x", secret: "s", token: "t", path: "/v1" })).toEqual({
      apiKey: "[redacted]",
      Authorization: "[redacted]",
      secret: "[redacted]",
      token: "[redacted]",
      path: "/v1",
    });
  });
});
