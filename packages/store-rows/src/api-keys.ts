/**
 * API keys: the row and its record, the key format and its hash. Only the SHA-256 of a key is
 * stored (see store-sqlite's api-keys.ts for why); both stores hash and show keys the same way.
 */
import * as crypto from "node:crypto";
import type { Principal, Role } from "@groundwork/core";
import { int, intOrNull } from "./columns.js";

export const API_KEY_PREFIX = "gw_";
/** The first characters of a key kept for recognising it in a list. */
export const SHOWN_PREFIX_LENGTH = 10;
/** Writing last-use on every request would turn reads into writes; once a minute is enough. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  name: string;
  role: Role;
  /** The first characters of the key, for recognising it in a list. */
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  name: string;
  role: Role;
  prefix: string;
  created_at: number | string;
  last_used_at: number | string | null;
  revoked_at: number | string | null;
}

export function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    role: row.role,
    prefix: row.prefix,
    createdAt: int(row.created_at),
    lastUsedAt: intOrNull(row.last_used_at),
    revokedAt: intOrNull(row.revoked_at),
  };
}

/** One-shot `crypto.hash` (Node 20.12+) where there is one: a third of a Hash object's cost per request (HP55). */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;

export function hashApiKey(key: string): string {
  return oneShot !== undefined
    ? oneShot("sha256", key, "hex")
    : crypto.createHash("sha256").update(key, "utf8").digest("hex");
}

/** A new key: `gw_` and 43 base64url characters (256 random bits). */
export function newApiKey(): string {
  return API_KEY_PREFIX + crypto.randomBytes(32).toString("base64url");
}

/** What authentication reads: the key joined with its organization. */
export interface VerifiedKeyRow {
  key_id: string;
  role: Role;
  last_used_at: number | string | null;
  org_id: string;
  org_name: string;
  plan: Principal["plan"];
}

export function toPrincipal(row: VerifiedKeyRow): Principal {
  return {
    organizationId: row.org_id,
    organizationName: row.org_name,
    plan: row.plan,
    role: row.role,
    apiKeyId: row.key_id,
  };
}
