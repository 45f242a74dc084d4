/**
 * Encrypts provider credentials at rest: AES-256-GCM with a key derived from the
 * master secret (HKDF-SHA256), a fresh 96-bit IV per value, and the owning row's
 * id as associated data, so a ciphertext copied to another row does not decrypt. Shared by
 * both SQL stores, so a value sealed by one opens in the other (same master secret).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";

export class CredentialCipher {
  private readonly key: Buffer | null;

  /** Without a master secret the cipher exists but refuses to work, so key-only tools need none. */
  constructor(masterSecret: string | null) {
    if (masterSecret !== null && masterSecret.length < 16) {
      throw new Error("The master secret must be at least 16 characters");
    }
    this.key =
      masterSecret === null
        ? null
        : Buffer.from(
            hkdfSync("sha256", masterSecret, "groundwork", "provider-credentials", 32) as ArrayBuffer,
          );
  }

  /** Whether a master secret is configured (values can be sealed and opened). */
  get available(): boolean {
    return this.key !== null;
  }

  private requireKey(): Buffer {
    if (this.key === null)
      throw new Error("No master secret configured: provider credentials are unavailable");
    return this.key;
  }

  encrypt(plaintext: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.requireKey(), iv);
    cipher.setAAD(Buffer.from(boundTo, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [
      VERSION,
      iv.toString("base64"),
      cipher.getAuthTag().toString("base64"),
      ciphertext.toString("base64"),
    ].join(":");
  }

  decrypt(sealed: string, boundTo: string): string {
    const [version, iv, tag, ciphertext] = sealed.split(":");
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new Error("Unrecognised credential format");
    }
    const decipher = createDecipheriv("aes-256-gcm", this.requireKey(), Buffer.from(iv, "base64"));
    decipher.setAAD(Buffer.from(boundTo, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString(
      "utf8",
    );
  }
}
