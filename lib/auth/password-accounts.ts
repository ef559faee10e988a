// Email and password accounts: registration and sign-in, with their abuse limits.
import type { Db } from "@/db/types";
import type { User } from "@/db/schema";
import { findPasswordUserByEmail, insertPasswordUser } from "@/db/queries/users";
import { violatedUniqueConstraint } from "@/db/unique-violation";
import { ApiError } from "@/lib/errors";
import { assertUnderLimit, enforceLimit, limits, recordFailure } from "@/lib/rate-limit";
import type { RegisterInput, SignInInput } from "@/lib/validations/auth";
import { issueApiToken, SIGN_IN_TOKEN_DAYS, type IssuedToken } from "./api-tokens";
import { sendVerificationLink } from "./email-verification";
import { hashSlots } from "./hash-slots";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./passwords";

export const INVALID_CREDENTIALS = "Invalid email or password.";

/** Creates the account; a 409 when the address is taken (whatever its letter case). */
export async function registerAccount(db: Db, input: RegisterInput, ip: string): Promise<User> {
  return registerThen(db, input, ip, async () => undefined).then((r) => r.user);
}

/** Creates the account and its first API token together: either both are saved or neither. */
export async function registerWithToken(
  db: Db,
  input: RegisterInput,
  ip: string,
): Promise<{ user: User; issued: IssuedToken }> {
  return registerThen(db, input, ip, (tx, user) =>
    issueApiToken(tx, { userId: user.id, kind: "sign_in", name: "Registration (API)", days: SIGN_IN_TOKEN_DAYS }),
  );
}

// The new account's address is unproven until the link mailed to it is used (./email-verification.ts).
async function registerThen<T>(
  db: Db,
  input: RegisterInput,
  ip: string,
  then: (tx: Db, user: User) => Promise<T>,
): Promise<{ user: User; issued: T }> {
  // Counted outside the transaction, so a refused attempt still counts.
  await enforceLimit(db, limits.registrationsPerIp, ip);
  const passwordHash = await hashPassword(input.password, { address: ip, account: input.email.toLowerCase() });
  try {
    const created = await db.transaction(async (tx) => {
      const user = await insertPasswordUser(tx, { email: input.email.toLowerCase(), name: input.name, passwordHash });
      return { user, issued: await then(tx, user) };
    });
    await sendVerificationLink(db, created.user);
    return created;
  } catch (error) {
    if (violatedUniqueConstraint(error) === "users_password_email_key") {
      throw new ApiError(409, "An account with this email already exists. Sign in, or reset your password.", {
        code: "email_taken",
      });
    }
    throw error;
  }
}

/**
 * The account behind an email and password, or a 401 that does not say which of the two was wrong.
 * Failures count per client address, and per account *from that client*: a client past either limit waits
 * even with the right password, while the owner signing in from elsewhere is never locked out by it.
 */
export async function verifyPasswordSignIn(db: Db, input: SignInInput, ip: string): Promise<User> {
  const email = input.email.toLowerCase();
  const accountFromClient = `${email}|${ip}`;
  await assertUnderLimit(db, limits.signInFailuresPerIp, ip);
  await assertUnderLimit(db, limits.signInFailuresPerAccount, accountFromClient);
  const user = await findPasswordUserByEmail(db, email);
  const claimant = { address: ip, account: email };
  const ok = user?.passwordHash
    ? await verifyPassword(input.password, user.passwordHash, claimant)
    : (await burnPasswordCheck(input.password, claimant), false);
  if (!user || !ok) {
    hashSlots.recordFailure(claimant);
    await recordFailure(db, limits.signInFailuresPerIp, ip);
    await recordFailure(db, limits.signInFailuresPerAccount, accountFromClient);
    throw new ApiError(401, INVALID_CREDENTIALS, { code: "invalid_credentials" });
  }
  return user;
}

/** The JSON sign-in: the account behind an email and password (or the same 401), and a fresh API token for it. */
export async function signInWithToken(
  db: Db,
  input: SignInInput,
  ip: string,
): Promise<{ user: User; issued: IssuedToken }> {
  const user = await verifyPasswordSignIn(db, input, ip);
  const issued = await issueApiToken(db, {
    userId: user.id,
    kind: "sign_in",
    name: "Email sign-in (API)",
    days: SIGN_IN_TOKEN_DAYS,
  });
  return { user, issued };
}
