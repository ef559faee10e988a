// "Forgot password": single-use links valid for 30 minutes; a reset ends every session and token.
import type { Db } from "@/db/types";
import { deleteUserTokens } from "@/db/queries/api-tokens";
import { consumeResetToken, insertResetToken, voidUserResetTokens } from "@/db/queries/password-resets";
import { deleteUserSessions } from "@/db/queries/sessions";
import {
  findPasswordUserByEmail,
  findUserById,
  findVerifiedUserByEmail,
  markEmailVerified,
  setPasswordHash,
} from "@/db/queries/users";
import { ApiError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { sendPasswordResetMail } from "@/lib/mail";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { siteUrl } from "@/lib/site";
import type { ResetPasswordInput } from "@/lib/validations/auth";
import { hashPassword } from "./passwords";
import { digest, randomSecret } from "@/lib/secrets";

const RESET_VALID_MINUTES = 30;
const RESET_INVALID_MESSAGE = "This reset link is invalid or has expired. Ask for a new one.";

/**
 * Mails a reset link when the account exists. The caller answers the same either way, and the mail goes
 * out after the answer, so neither the reply nor its timing tells whether the address has an account.
 */
export async function requestPasswordReset(db: Db, email: string, ip: string): Promise<{ sent: Promise<void> }> {
  await enforceLimit(db, limits.resetRequestsPerIp, ip);
  await enforceLimit(db, limits.resetRequestsPerAccount, email);
  // The password account with this address, else the account that proved it (e.g. a GitHub user adding a password).
  const user = (await findPasswordUserByEmail(db, email)) ?? (await findVerifiedUserByEmail(db, email));
  if (!user?.email) return { sent: Promise.resolve() };
  const token = randomSecret();
  await insertResetToken(db, {
    userId: user.id,
    tokenHash: digest(token),
    expiresAt: new Date(Date.now() + RESET_VALID_MINUTES * 60_000),
  });
  const link = `${siteUrl()}/reset-password?token=${encodeURIComponent(token)}`;
  const sent = sendPasswordResetMail(user.email, link, RESET_VALID_MINUTES).catch((error) =>
    logError("password reset mail failed", error),
  );
  return { sent };
}

/**
 * Sets the new password and ends every session, API token and other reset link of the account. Using a
 * link mailed to the address also proves the address (unless another account proved it first).
 */
export async function resetPassword(db: Db, input: ResetPasswordInput, ip: string): Promise<void> {
  await enforceLimit(db, limits.resetAttemptsPerIp, ip);
  const passwordHash = await hashPassword(input.password, { address: ip });
  await db.transaction(async (tx) => {
    const userId = await consumeResetToken(tx, digest(input.token));
    if (!userId) throw new ApiError(400, RESET_INVALID_MESSAGE);
    await setPasswordHash(tx, userId, passwordHash);
    const user = await findUserById(tx, userId);
    if (user?.email) await markEmailVerified(tx, userId, user.email);
    await voidUserResetTokens(tx, userId);
    await deleteUserSessions(tx, userId);
    await deleteUserTokens(tx, userId);
  });
}
