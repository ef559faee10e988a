// Password hashing with scrypt: memory-hard, salted, compared in constant time.
import { randomBytes, scrypt as scryptCallback, type ScryptOptions } from "node:crypto";
import { hashSlots, type Claimant } from "./hash-slots";
import { safeEqual } from "@/lib/secrets";

// N = 2^15, r = 8 → 32 MiB and ~100 ms per hash on this class of machine. The parameters are stored
// with each hash, so they can be raised later without invalidating existing passwords.
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 64;

/**
 * Every hash and check runs in a fair, bounded slot (lib/auth/hash-slots) claimed by a client address and
 * account: a burst is queued briefly, failing claimants last, or refused with 503.
 */
function scrypt(password: string, salt: Buffer, options: ScryptOptions, claimant: Claimant): Promise<Buffer> {
  return hashSlots.run(claimant, () => rawScrypt(password, salt, options));
}

function rawScrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128 * N * r bytes or Node refuses the parameters.
    scryptCallback(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 256 * options.N! * options.r! },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (base64url), self-describing so the cost can change later. */
export async function hashPassword(password: string, claimant: Claimant): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, COST, claimant);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string, claimant: Claimant): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== "scrypt" || !salt || !hash || !Object.values(cost).every((v) => Number.isInteger(v) && v > 0))
    return false;
  const key = await scrypt(password, Buffer.from(salt, "base64url"), cost, claimant);
  return safeEqual(key, Buffer.from(hash, "base64url"));
}

// Compared against when the account does not exist, so a miss costs as much time as a wrong password. Kept as
// the hash once made, not as the promise of the request that made it (which would keep that request alive).
let decoy: string | undefined;
let decoyHashing: Promise<string> | undefined;
export async function burnPasswordCheck(password: string, claimant: Claimant): Promise<void> {
  if (!decoy) {
    decoyHashing ??= hashPassword(randomBytes(12).toString("base64url"), { address: "decoy" }).finally(
      () => (decoyHashing = undefined),
    );
    decoy = await decoyHashing;
  }
  await verifyPassword(password, decoy, claimant);
}
