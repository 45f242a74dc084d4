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
});
