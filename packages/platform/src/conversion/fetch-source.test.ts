/**
 * The private-network guard of URL sources, including DNS rebinding: the first
 * resolution (mocked here to a public address) passes the early check, and the
 * connection's own lookup (the real one, localhost → loopback) must still refuse.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DocumentError } from "@groundwork/convert";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("node:dns/promises", async (original) => {
  const real = await original<typeof import("node:dns/promises")>();
  return {
    ...real,
    lookup: async (host: string, options: object) =>
      host === "localhost" ? [{ address: "93.184.216.34", family: 4 }] : real.lookup(host, options as never),
  };
});

const { fetchSource } = await import("./fetch-source.js");
const { lookupPublicOnly } = await import("../network/guarded-network.js");

const server = createServer((_, res) => res.end("secret from the private network"));
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const options = { allowPrivateNetwork: false, maxBytes: 1024, timeoutMs: 5_000 };

describe("fetchSource against DNS rebinding", () => {
  it("refuses a name whose connection-time address is private although the first lookup was public", async () => {
    const attempt = fetchSource(
      `http://localhost:${port}/doc.txt`,
      null,
      options,
      new AbortController().signal,
    );
    await expect(attempt).rejects.toBeInstanceOf(DocumentError);
    await expect(attempt).rejects.toMatchObject({ code: "source_refused" });
    await expect(attempt).rejects.toThrow(/unless allowPrivateNetwork is true/);
  });

  it("fetches the same source when private networks are allowed", async () => {
    const fetched = await fetchSource(
      `http://localhost:${port}/doc.txt`,
      null,
      { ...options, allowPrivateNetwork: true },
      new AbortController().signal,
    );
    expect(new TextDecoder().decode(fetched.bytes)).toBe("secret from the private network");
  });

  it("lookupPublicOnly answers public names and refuses private ones", async () => {
    const refused = await new Promise<Error | null>((resolve) =>
      lookupPublicOnly("localhost", {}, (error) => resolve(error)),
    );
    expect(refused?.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
  });
});
