// Random bearer secrets and the one-way digests stored in their place.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const API_TOKEN_PREFIX = "agora_";

/** 256 random bits, URL-safe; with `prefix`, recognisable by secret scanners and in logs. */
export function randomSecret(prefix = ""): string {
  return prefix + randomBytes(32).toString("base64url");
}

/**
 * SHA-256 of a secret, as stored. A fast digest is enough here: these secrets carry 256 random bits,
 * so unlike passwords they cannot be guessed from their digest.
 */
export function digest(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
