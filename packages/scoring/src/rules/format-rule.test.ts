import { describe, expect, it } from "vitest";
import { evaluateRules } from "./evaluate-rules.js";
import { isEmail, isHttpUrl, isIban, isIsoDate } from "./format-rule.js";

const run = (format: unknown, v: unknown) =>
  evaluateRules([{ id: "f", type: "FORMAT", field: "/v", format }], { v }).outcomes[0];

describe("FORMAT", () => {
  it("DATE_ISO: strict ISO 8601 calendar date", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2000-02-29")).toBe(true);
    expect(isIsoDate("1900-02-29")).toBe(false);
    expect(isIsoDate("2023-02-29")).toBe(false);
    expect(isIsoDate("2024-04-31")).toBe(false);
    expect(isIsoDate("2024-13-01")).toBe(false);
    expect(isIsoDate("2024-00-10")).toBe(false);
  });

  it("DATE_ISO: no lenient parsing", () => {
    for (const lenient of [
      "2024-1-5",
      "24-01-05",
      "2024/01/05",
      "2024-01-05T00:00:00Z",
      " 2024-01-05",
      "20240105",
    ]) {
      expect(isIsoDate(lenient)).toBe(false);
    }
  });

  it("EMAIL: one @, dotted domain, TLD of 2+ letters", () => {
    expect(isEmail("jane.doe+tag@example.co.uk")).toBe(true);
    expect(isEmail("a@b@example.com")).toBe(false);
    expect(isEmail("jane@localhost")).toBe(false);
    expect(isEmail("jane@example.c")).toBe(false);
    expect(isEmail("jane@example.c0m")).toBe(false);
    expect(isEmail("jane doe@example.com")).toBe(false);
  });

  it("URL: absolute http/https with host", () => {
    expect(isHttpUrl("https://example.com/path?q=1#x")).toBe(true);
    expect(isHttpUrl("http://user:pw@example.com:8080/")).toBe(true);
    expect(isHttpUrl("HTTPS://EXAMPLE.COM")).toBe(true);
    expect(isHttpUrl("ftp://example.com")).toBe(false);
    expect(isHttpUrl("/relative/path")).toBe(false);
    expect(isHttpUrl("https://")).toBe(false);
    expect(isHttpUrl("https:///path")).toBe(false);
  });

  it("URL: international domains must be punycoded", () => {
    expect(isHttpUrl("https://bücher.de")).toBe(false);
    expect(isHttpUrl("https://xn--bcher-kva.de")).toBe(true);
  });

  it("URL: host with _ is rejected", () => {
    expect(isHttpUrl("https://my_host.example.com")).toBe(false);
    expect(isHttpUrl("https://example.com/my_path")).toBe(true);
  });

  it("IBAN: length, country code, check digits and mod-97, after removing spaces and upper-casing", () => {
    expect(isIban("DE89 3704 0044 0532 0130 00")).toBe(true);
    expect(isIban("de89370400440532013000")).toBe(true);
    expect(isIban("NO9386011117947")).toBe(true);
    expect(isIban("DE89370400440532013001")).toBe(false);
    expect(isIban("DE8937040044")).toBe(false);
    expect(isIban("XX89370400440532013000")).toBe(false);
    expect(isIban("DE89-3704-0044-0532-0130-00")).toBe(false);
  });

  it("runs one outcome per location with the verdict", () => {
    expect(run("EMAIL", "a@b.io")).toMatchObject({ verdict: "PASS", expected: "format EMAIL" });
    expect(run("DATE_ISO", "2024-02-30")?.verdict).toBe("FAIL");
  });

  it("non-string value is ERROR", () => {
    expect(run("DATE_ISO", 20240101)?.verdict).toBe("ERROR");
  });

  it("unknown format is ERROR (names are case-sensitive)", () => {
    expect(run("PHONE", "x")?.verdict).toBe("ERROR");
    expect(run("email", "a@b.io")?.verdict).toBe("ERROR");
  });
});
