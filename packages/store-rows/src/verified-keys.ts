/**
 * Verified API keys remembered by their hash for VERIFIED_TTL_MS, so a burst of calls with one
 * key reads the database once a second instead of once a call. Each store's `ApiKeyStore` holds
 * one; a revocation or a plan change through that store clears it, one made by another process
 * takes effect within the TTL. Pure (the caller passes the time), so both stores share it.
 */
import type { Principal } from "@groundwork/core";

/** How long a verified key is trusted without reading the database again. */
export const VERIFIED_TTL_MS = 1_000;
/** Remembered keys at most (the oldest goes first); a server sees far fewer active keys. */
export const VERIFIED_LIMIT = 10_000;

export class VerifiedKeys {
  private readonly entries = new Map<string, { principal: Principal; verifiedAt: number }>();

  /** A copy of the principal verified within the TTL before `now`, else null (and forgotten). */
  get(hash: string, now: number): Principal | null {
    const remembered = this.entries.get(hash);
    if (remembered === undefined) return null;
    if (now - remembered.verifiedAt < VERIFIED_TTL_MS && now >= remembered.verifiedAt) {
      return { ...remembered.principal };
    }
    this.entries.delete(hash);
    return null;
  }

  remember(hash: string, principal: Principal, now: number): void {
    if (this.entries.size >= VERIFIED_LIMIT) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { principal: { ...principal }, verifiedAt: now });
  }

  clear(): void {
    this.entries.clear();
  }
}
