import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLogger, isoTime, type LogLevel, logLine, redact } from "./logger.js";

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

  it("builds the line JSON.stringify gives for the time, level, message and redacted fields", () => {
    const names = fc.oneof(
      fc.constantFrom("time", "level", "msg", "0", "12", "__proto__", "apiKey", "token", "requestId", "path"),
      fc.string(),
    );
    fc.assert(
      fc.property(
        fc.date({ noInvalidDate: true }),
        fc.constantFrom<LogLevel>("debug", "info", "warn", "error"),
        fc.string(),
        fc.array(
          fc.tuple(names, fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.date({ noInvalidDate: true }))),
        ),
        (date, level, message, entries) => {
          const fields: Record<string, unknown> = {};
          for (const [name, value] of entries)
            Object.defineProperty(fields, name, {
              value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          const time = date.toISOString();
          expect(logLine(time, level, message, fields)).toBe(
            JSON.stringify({ time, level, msg: message, ...redact(fields) }),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("formats the time as Date#toISOString does", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 3e14 }), fc.nat({ max: 120_000 }), (ms, later) => {
        // Twice in a row, in the same minute or the next: the cached prefix must never go stale.
        expect(isoTime(ms)).toBe(new Date(ms).toISOString());
        expect(isoTime(ms + later)).toBe(new Date(ms + later).toISOString());
      }),
      { numRuns: 2_000 },
    );
    expect(isoTime(Date.UTC(2026, 10, 26, 10, 59, 59, 999))).toBe("2026-11-26T10:59:59.999Z");
    expect(isoTime(Date.UTC(2026, 10, 26, 11, 0, 0, 7))).toBe("2026-11-26T11:00:00.007Z");
  });
});
