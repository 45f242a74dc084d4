import { describe, expect, it } from "vitest";
import { deriveChatUrl, PRODUCTION_CHAT_URL } from "./chat-url.js";
import { loadMcpConfig } from "./config.js";

describe("AI_SERVICE_CHAT_URL derived from the base URL", () => {
  it.each([
    // Known development bases: a local server is its own chat origin.
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080"],
    ["http://127.0.0.1:9000/", "http://127.0.0.1:9000"],
    ["http://localhost:8080", "http://localhost:8080"],
    ["https://localhost", "https://localhost"],
    ["http://[::1]:8080", "http://[::1]:8080"],
    ["http://groundwork.localhost:8080", "http://groundwork.localhost:8080"],
    // Unknown bases: the production chat origin, never a guess from the host name.
    ["https://api.example.com", PRODUCTION_CHAT_URL],
    ["https://groundwork.internal.example.org:8443", PRODUCTION_CHAT_URL],
    ["http://10.0.0.5:8080", PRODUCTION_CHAT_URL],
    ["http://localhost.example.com", PRODUCTION_CHAT_URL],
  ])("%s → %s", (base, chat) => {
    expect(deriveChatUrl(base)).toBe(chat);
    expect(loadMcpConfig({ AI_SERVICE_API_KEY: "k", AI_SERVICE_BASE_URL: base }).chatUrl).toBe(chat);
  });

  it("AI_SERVICE_CHAT_URL wins over the derivation, and must be a URL", () => {
    const env = { AI_SERVICE_API_KEY: "k", AI_SERVICE_BASE_URL: "https://api.example.com" };
    expect(loadMcpConfig({ ...env, AI_SERVICE_CHAT_URL: "https://chat.example.com/" }).chatUrl).toBe(
      "https://chat.example.com",
    );
    expect(() => loadMcpConfig({ ...env, AI_SERVICE_CHAT_URL: "chat" })).toThrow(/AI_SERVICE_CHAT_URL/);
  });
});
