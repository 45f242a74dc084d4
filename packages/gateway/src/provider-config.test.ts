import type { GroundworkError } from "@groundwork/core";
import { describe, expect, it } from "vitest";
import { parseProviderType, validateProviderApiKey, validateProviderConfig } from "./provider-config.js";

function paramOf(fn: () => unknown): string | null {
  try {
    fn();
  } catch (error) {
    return (error as GroundworkError).param;
  }
  throw new Error("expected a GroundworkError");
}

describe("provider records", () => {
  it("accepts each kind's documented keys and normalises them", () => {
    expect(
      validateProviderConfig("HOSTED_A", { baseUrl: "https://x.test/v1/", useResponsesApi: "true" }),
    ).toEqual({
      baseUrl: "https://x.test/v1",
      useResponsesApi: true,
    });
    expect(
      validateProviderConfig("CLOUD_A", {
        endpoint: "https://res.example.com",
        apiVersion: "2024-08-01-preview",
      }),
    ).toMatchObject({
      endpoint: "https://res.example.com",
    });
    expect(validateProviderConfig("HOSTED_B", {})).toEqual({});
    expect(validateProviderConfig("SELF_HOSTED", { baseUrl: "http://10.0.0.5:8000/v1" })).toEqual({
      baseUrl: "http://10.0.0.5:8000/v1",
    });
  });

  it.each([
    ["HOSTED_A", { baseUrl: "ftp://x" }, "config.baseUrl"],
    ["HOSTED_A", { useResponsesApi: "yes" }, "config.useResponsesApi"],
    ["HOSTED_A", { deployment: "x" }, "config.deployment"],
    ["CLOUD_A", {}, "config.endpoint"],
    ["CLOUD_A", { endpoint: "http://insecure.example.com" }, "config.endpoint"],
    ["SELF_HOSTED", {}, "config.baseUrl"],
    ["HOSTED_B", { version: "" }, "config.version"],
    ["HOSTED_A", [], "config"],
    ["HOSTED_A", null, "config"],
  ] as const)("%s with %j → 400 on %s", (type, config, param) => {
    expect(paramOf(() => validateProviderConfig(type, config))).toBe(param);
  });

  it("requires an apiKey except for SELF_HOSTED, which must omit it", () => {
    expect(validateProviderApiKey("HOSTED_A", "sk")).toBe("sk");
    expect(paramOf(() => validateProviderApiKey("HOSTED_A", undefined))).toBe("apiKey");
    expect(validateProviderApiKey("SELF_HOSTED", undefined)).toBeNull();
    expect(paramOf(() => validateProviderApiKey("SELF_HOSTED", "sk"))).toBe("apiKey");
  });

  it("knows the types and refuses to configure CLOUD_B", () => {
    expect(parseProviderType("HOSTED_C")).toBe("HOSTED_C");
    expect(paramOf(() => parseProviderType("hosted-a"))).toBe("provider");
    expect(paramOf(() => parseProviderType("CLOUD_B"))).toBe("provider");
  });
});
