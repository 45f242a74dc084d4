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
