/**
 * MemoRouter answers every match exactly as the router it wraps (HP51): for routes with
 * parameters, wildcards and middleware, asked in any order and more than once, and past its
 * limit (when its memory starts over).
 */
import fc from "fast-check";
import type { Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { describe, expect, it } from "vitest";
import { MemoRouter } from "./memo-router.js";

const ROUTES: Array<[string, string]> = [
  ["ALL", "*"],
  ["ALL", "/v1/*"],
  ["POST", "/v1/chat/completions"],
  ["GET", "/v1/models"],
  ["GET", "/v1/files/:id"],
  ["DELETE", "/v1/files/:id"],
  ["GET", "/v1/files/:id/content"],
  ["GET", "/v1/kb/:kb/documents/:doc"],
  ["GET", "/console/*"],
  ["GET", "/health"],
];

const smart = () => new SmartRouter<string>({ routers: [new RegExpRouter(), new TrieRouter()] });

function routed<R extends Router<string>>(router: R): R {
  ROUTES.forEach(([method, path], i) => {
    router.add(method, path, `h${i}`);
  });
  return router;
}

const segment = fc.constantFrom(
  "v1",
  "files",
  "chat",
  "completions",
  "models",
  "kb",
  "documents",
  "content",
  "console",
  "health",
  "x",
  "f_1",
  "%20a",
);
const path = fc.array(segment, { minLength: 0, maxLength: 5 }).map((parts) => `/${parts.join("/")}`);
const method = fc.constantFrom("GET", "POST", "DELETE", "PUT");

describe("MemoRouter", () => {
  it("answers what the router it wraps answers, asked again and past its limit", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(method, path), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        (asks, limit) => {
          const plain = routed(smart());
          const memo = routed(new MemoRouter<string>(smart(), limit));
          for (const [m, p] of [...asks, ...asks]) {
            expect(memo.match(m, p)).toEqual(plain.match(m, p));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("asks the router it wraps once per method and path, until its limit", () => {
    const inner = routed(smart());
    let asked = 0;
    const counting = {
      name: inner.name,
      add: inner.add.bind(inner),
      match: (m: string, p: string) => {
        asked++;
        return inner.match(m, p);
      },
    };
    const memo = new MemoRouter<string>(counting, 2);
    memo.match("GET", "/v1/files/a");
    memo.match("GET", "/v1/files/a");
    memo.match("POST", "/v1/files/a");
    expect(asked).toBe(2);
    memo.match("GET", "/v1/files/b");
    memo.match("GET", "/v1/files/c"); // the third GET path: the memory starts over
    memo.match("GET", "/v1/files/a");
    expect(asked).toBe(5);
    expect(new MemoRouter<string>().name).toBe("MemoRouter + SmartRouter");
  });
});
