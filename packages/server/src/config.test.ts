/** The environment's share of the platform config. */
import { describe, expect, it } from "vitest";
import { platformConfigFromEnv } from "./config.js";

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
});
