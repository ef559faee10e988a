// Email and password accounts: registration and sign-in, with their abuse limits.
import type { Db } from "@/db/types";
import type { User } from "@/db/schema";
import { findUserByEmail, insertPasswordUser } from "@/db/queries/users";
import { violatedUniqueConstraint } from "@/db/unique-violation";
import { ApiError } from "@/lib/errors";
import { assertUnderLimit, enforceLimit, limits, recordFailure } from "@/lib/rate-limit";
import type { RegisterInput, SignInInput } from "@/lib/validations/auth";
import { issueApiToken, SIGN_IN_TOKEN_DAYS, type IssuedToken } from "./api-tokens";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./passwords";

export const INVALID_CREDENTIALS = "Invalid email or password.";

/** Creates the account; a 409 when the address is taken (whatever its letter case). */
export async function registerAccount(db: Db, input: RegisterInput, ip: string): Promise<User> {
  return registerThen(db, input, ip, async () => undefined).then((r) => r.user);
}

/** Creates the account and its first API token together: either both are saved or neither. */
export async function registerWithToken(db: Db, input: RegisterInput, ip: string): Promise<{ user: User; issued: IssuedToken }> {
  return registerThen(db, input, ip, (tx, user) => issueApiToken(tx, { userId: user.id, kind: "sign_in", name: "Registration (API)", days: SIGN_IN_TOKEN_DAYS }));
}

async function registerThen<T>(db: Db, input: RegisterInput, ip: string, then: (tx: Db, user: User) => Promise<T>): Promise<{ user: User; issued: T }> {
  // Counted outside the transaction, so a refused attempt still counts.
  await enforceLimit(db, limits.registrationsPerIp, ip);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const user = await insertPasswordUser(tx, { email: input.email.toLowerCase(), name: input.name, passwordHash });
      return { user, issued: await then(tx, user) };
    });
  } catch (error) {
    if (violatedUniqueConstraint(error) === "users_email_key") {
      throw new ApiError(409, "An account with this email already exists. Sign in, or reset your password.");
    }
    throw error;
  }
}

/**
 * The account behind an email and password, or a 401 that does not say which of the two was wrong.
 * Failures count per account and per address; past the limit even the right password waits.
 */
export async function verifyPasswordSignIn(db: Db, input: SignInInput, ip: string): Promise<User> {
  const email = input.email.toLowerCase();
  await assertUnderLimit(db, limits.signInFailuresPerIp, ip);
  await assertUnderLimit(db, limits.signInFailuresPerAccount, email);
  const user = await findUserByEmail(db, email);
  const ok = user?.passwordHash ? await verifyPassword(input.password, user.passwordHash) : (await burnPasswordCheck(input.password), false);
  if (!user || !ok) {
    await recordFailure(db, limits.signInFailuresPerIp, ip);
    await recordFailure(db, limits.signInFailuresPerAccount, email);
    throw new ApiError(401, INVALID_CREDENTIALS);
  }
  return user;
}
