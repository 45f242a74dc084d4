import { describe, expect, it } from "vitest";
import { REDACTED, redactSecret } from "./redact-secret.js";

const KEY = "sk-live-4f9Qz7LmN2pXc8RtV1bYwKsJ0hARY";

describe("redactSecret", () => {
  it("replaces a whole key the provider quotes", () => {
    expect(redactSecret(`Incorrect API key provided: ${KEY}. You can find your API key at …`, KEY)).toBe(
      `Incorrect API key provided: ${REDACTED}. You can find your API key at …`,
    );
  });

  it("replaces any run of 8 or more of its characters, and only that run", () => {
    expect(redactSecret("key ending 2pXc8RtV1bYwKsJ0hARY was refused", KEY)).toBe(
      `key ending ${REDACTED} was refused`,
    );
    // Seven characters are not a recognisable fragment.
    expect(redactSecret("prefix sk-live is not enough", KEY)).toBe("prefix sk-live is not enough");
  });

  it("replaces masked echoes that show the key's first ≥ 4 and last ≥ 3 characters", () => {
    expect(redactSecret("Incorrect API key provided: sk-li****ARY.", KEY)).toBe(
      `Incorrect API key provided: ${REDACTED}.`,
    );
    expect(redactSecret("key 'sk-l*****************hARY' refused", KEY)).toBe(`key '${REDACTED}' refused`);
  });

  it("keeps masked tokens of other keys and ordinary stars", () => {
    const text = "Incorrect API key provided: sk-ot****XYZ; 2 * 3 = 6; **bold**";
    expect(redactSecret(text, KEY)).toBe(text);
    // Three leading characters are too few to name this key.
    expect(redactSecret("sk-****ARY", KEY)).toBe("sk-****ARY");
  });

  it("returns text without the key unchanged, and ignores missing or short secrets", () => {
    const text = "The model `gpt-x` does not exist";
    expect(redactSecret(text, KEY)).toBe(text);
    expect(redactSecret(`token ${KEY}`, null)).toBe(`token ${KEY}`);
    expect(redactSecret("no-key was sent", "no-key")).toBe("no-key was sent");
  });

  it("never lets the marker complete a fragment of a secret that contains it", () => {
    const secret = "ab[redacted]cd";
    const out = redactSecret(`x ${secret} y`, secret);
    for (let i = 0; i + 8 <= secret.length; i++) expect(out).not.toContain(secret.slice(i, i + 8));
  });
});
