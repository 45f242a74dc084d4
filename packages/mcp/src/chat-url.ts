/**
 * `AI_SERVICE_CHAT_URL` when unset (spec document 3, "Tool server: Environment"): a known
 * development base maps to its development chat origin; any other base maps to the
 * production chat origin — not to something guessed from the base's host name, which
 * would point users at a page that may not exist.
 */

/** The production chat app (decision T5); self-hosted instances set AI_SERVICE_CHAT_URL. */
export const PRODUCTION_CHAT_URL = "https://chat.groundwork.dev";

interface DevelopmentBase {
  /** Which bases this entry knows. */
  matches(base: URL): boolean;
  /** Their development chat origin. */
  chatOrigin(base: URL): string;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The known development bases: a `groundwork serve` on this machine (any port, any
 * `*.localhost` name) serves its own chat pages, so its chat origin is its own origin.
 */
const DEVELOPMENT_BASES: readonly DevelopmentBase[] = [
  {
    matches: (base) => LOOPBACK_HOSTS.has(base.hostname) || base.hostname.endsWith(".localhost"),
    chatOrigin: (base) => base.origin,
  },
];

export function deriveChatUrl(baseUrl: string): string {
  const base = new URL(baseUrl);
  return DEVELOPMENT_BASES.find((known) => known.matches(base))?.chatOrigin(base) ?? PRODUCTION_CHAT_URL;
}
