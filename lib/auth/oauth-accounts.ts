// People who sign in with GitHub (or Google): one user per provider identity, never merged by e-mail alone.
import type { Db } from "@/db/types";
import {
  findUserIdByAccount,
  findVerifiedUserByEmail,
  insertOAuthUser,
  refreshOAuthProfile,
  type OAuthProfile,
} from "@/db/queries/users";
import { violatedUniqueConstraint } from "@/db/unique-violation";
import { ApiError } from "@/lib/errors";

export type OAuthIdentity = OAuthProfile & { provider: string; providerAccountId: string };

/**
 * Accounts are never merged by address. An address some other account has *proven* (through its provider or
 * the verification link) refuses a new identity; an unproven claim (a password account registered with the
 * address but never verified) does not, so registering someone's address first cannot lock them out.
 */
export const EMAIL_TAKEN_MESSAGE = "An account with this email already exists. Sign in with your email and password.";
/** The code the callback screen maps to EMAIL_TAKEN_MESSAGE (it shows fixed texts only). */
const EMAIL_TAKEN_CODE = "EmailTaken";

/** Why this identity may not sign in (a code for the callback screen), or null when it may. */
export async function oauthSignInProblem(db: Db, identity: OAuthIdentity): Promise<string | null> {
  if (await findUserIdByAccount(db, identity.provider, identity.providerAccountId)) return null;
  if (identity.email && (await findVerifiedUserByEmail(db, identity.email))) return EMAIL_TAKEN_CODE;
  return null;
}

/** The user id for this identity, creating the user on first sign-in. */
export async function resolveOAuthUser(db: Db, identity: OAuthIdentity): Promise<string> {
  const { provider, providerAccountId, ...profile } = identity;
  const email = profile.email?.toLowerCase() ?? null;
  try {
    return await db.transaction(async (tx) => {
      const existing = await findUserIdByAccount(tx, provider, providerAccountId);
      if (existing) {
        await refreshOAuthProfile(tx, existing, profile);
        return existing;
      }
      return insertOAuthUser(tx, provider, providerAccountId, { ...profile, email });
    });
  } catch (error) {
    const constraint = violatedUniqueConstraint(error);
    if (constraint === "users_verified_email_key")
      throw new ApiError(409, EMAIL_TAKEN_MESSAGE, { code: "email_taken" });
    // Two first sign-ins of the same identity at once: the other one created the user.
    if (constraint === "accounts_provider_account_key") {
      const winner = await findUserIdByAccount(db, provider, providerAccountId);
      if (winner) return winner;
    }
    throw error;
  }
}
