import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MIN_FRAGMENT, redactSecret } from "./redact-secret.js";

function fragmentsOf(secret: string): string[] {
  const windows: string[] = [];
  for (let i = 0; i + MIN_FRAGMENT <= secret.length; i++) windows.push(secret.slice(i, i + MIN_FRAGMENT));
  return windows;
}

// Key-like secrets and free text over a small alphabet, so text and secret share characters often.
const keyChars = fc.constantFrom(..."abcAB01-_*[]redact ".split(""));
const secretArb = fc.oneof(
  fc.string({ unit: keyChars, minLength: MIN_FRAGMENT, maxLength: 40 }),
  fc.string({ unit: "grapheme", minLength: MIN_FRAGMENT, maxLength: 40 }),
);
const textArb = fc.string({ unit: keyChars, maxLength: 30 });

describe("redactSecret (property)", () => {
  it("leaves no run of 8+ characters of the secret, whatever piece of it the text embeds", () => {
    fc.assert(
      fc.property(secretArb, textArb, textArb, fc.nat(), fc.nat(), (secret, before, after, from, span) => {
        const start = from % (secret.length - MIN_FRAGMENT + 1);
        const end = start + MIN_FRAGMENT + (span % (secret.length - start - MIN_FRAGMENT + 1));
        const out = redactSecret(`${before}${secret.slice(start, end)}${after}`, secret);
        for (const fragment of fragmentsOf(secret)) expect(out).not.toContain(fragment);
      }),
      { numRuns: 2000 },
    );
  });

  it("passes text holding no fragment and no masked echo unchanged", () => {
    fc.assert(
      fc.property(secretArb, fc.string({ maxLength: 60 }), (secret, text) => {
        fc.pre(!text.includes("*") && fragmentsOf(secret).every((fragment) => !text.includes(fragment)));
        expect(redactSecret(text, secret)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
