/**
 * Outgoing requests to user-supplied URLs (conversion sources, function tools):
 * loopback, private and link-local addresses are refused unless private networks
 * are allowed. The address is checked twice — before the request, for a clear
 * error, and by the connection's own DNS lookup — so a name that resolves to a
 * public address first and a private one at connect time (DNS rebinding) is
 * refused too.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { invalidRequest } from "@groundwork/core";
import { Agent, fetch as undiciFetch } from "undici";

/** How a refusal names the setting by default (a library user's config field). */
export const DEFAULT_PRIVATE_NETWORK_SETTING = "allowPrivateNetwork is true";

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** True for loopback, private, link-local, carrier-grade NAT, multicast and unspecified addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped !== undefined) return blocked.check(mapped, "ipv4");
    return blocked.check(address, "ipv6");
  }
  return true;
}

export class RefusedAddressError extends Error {}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** `dns.lookup` for outgoing connections that fails when any address of the name is private. */
export function lookupPublicOnly(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) {
      callback(error, []);
      return;
    }
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused !== undefined) {
      callback(new RefusedAddressError(`${hostname} resolves to ${refused.address}`), []);
      return;
    }
    const [first] = addresses;
    if (options.all === true) callback(null, addresses);
    else if (first === undefined) callback(new Error(`${hostname} has no address`), []);
    else callback(null, first.address, first.family);
  });
}

let publicOnlyAgent: Agent | undefined;
/** The connection pool for user-supplied URLs when private networks are refused (made on first use). */
function publicOnlyDispatcher(): Agent {
  publicOnlyAgent ??= new Agent({ connect: { lookup: lookupPublicOnly } });
  return publicOnlyAgent;
}

export function refusedAddressOf(error: unknown): RefusedAddressError | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof RefusedAddressError) return cause;
  }
  return undefined;
}

/** `fetch` whose connections refuse private addresses at connect time (unless allowed). */
export function guardedFetch(allowPrivateNetwork: boolean): typeof fetch {
  if (allowPrivateNetwork) return fetch;
  return (input, init) =>
    undiciFetch(input as URL, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: publicOnlyDispatcher(),
    }) as unknown as Promise<Response>;
}

/** The first private address a host resolves to (the early check), or undefined; DNS errors propagate. */
export async function privateAddressOf(host: string): Promise<string | undefined> {
  const bare = host.replace(/^\[|\]$/g, "");
  const addresses =
    isIP(bare) !== 0
      ? [bare]
      : (await lookup(bare, { all: true, verbatim: true })).map((entry) => entry.address);
  return addresses.find(isPrivateAddress);
}

/**
 * The early check of a user-supplied http(s) URL (PLATFORM.md §1.1): absolute, http or https,
 * no credentials in it, and — unless private networks are allowed — not resolving to a
 * loopback, private or link-local address (400 `private_network`). A name that does not
 * resolve now is accepted: the guarded fetch checks every connection again.
 */
export async function checkPublicHttpUrl(
  raw: string,
  options: { param: string; allowPrivateNetwork: boolean; allowPrivateNetworkSetting?: string | undefined },
): Promise<URL> {
  const { param } = options;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidRequest(`${param} must be an absolute http(s) URL`, { param });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalidRequest(`${param} must use http or https, not ${url.protocol}`, { param });
  }
  if (url.username !== "" || url.password !== "") {
    throw invalidRequest(`${param} must not carry credentials; send them as headers`, { param });
  }
  if (options.allowPrivateNetwork) return url;
  const refused = await privateAddressOf(url.hostname).catch(() => undefined);
  if (refused !== undefined) {
    throw invalidRequest(
      `${url.hostname} resolves to ${refused}, a loopback, private or link-local address; refused unless ${options.allowPrivateNetworkSetting ?? DEFAULT_PRIVATE_NETWORK_SETTING}`,
      { param, code: "private_network" },
    );
  }
  return url;
}
