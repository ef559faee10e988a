// Email verification for password accounts: a single-use link (stored as SHA-256, valid 24 hours) mailed to
// the address. Until it is used the address proves nothing: no admin rights, no claim that keeps the
// address's owner from signing in with GitHub (see roles.ts and oauth-accounts.ts).
import type { Db } from "@/db/types";
import type { User } from "@/db/schema";
import {
  consumeVerificationToken,
  insertVerificationToken,
  voidUserVerificationTokens,
} from "@/db/queries/email-verifications";
import { markEmailVerified } from "@/db/queries/users";
import { violatedUniqueConstraint } from "@/db/unique-violation";
import { ApiError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { linkDelivery, sendEmailVerificationMail } from "@/lib/mail";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { siteUrl } from "@/lib/site";
import { digest, randomSecret } from "@/lib/secrets";
import { confirmationHint } from "./link-words";

const VERIFICATION_VALID_HOURS = 24;
const VERIFICATION_INVALID_MESSAGE =
  "This verification link is invalid or has expired. Ask for a new one from your account page.";
const EMAIL_PROVEN_ELSEWHERE_MESSAGE = "Another account has already confirmed this email address.";
const EMAIL_ALREADY_VERIFIED_MESSAGE = "Your email address is already confirmed.";
export const EMAIL_VERIFIED_MESSAGE = "Your email address is confirmed.";

/** Stores a fresh link for the user's current address and mails it; the mail goes out after the caller answers. */
export async function sendVerificationLink(db: Db, user: Pick<User, "id" | "email">): Promise<{ sent: Promise<void> }> {
  if (!user.email) return { sent: Promise.resolve() };
  const token = randomSecret();
  await insertVerificationToken(db, {
    userId: user.id,
    email: user.email.toLowerCase(),
    tokenHash: digest(token),
    expiresAt: new Date(Date.now() + VERIFICATION_VALID_HOURS * 3_600_000),
  });
  const link = `${siteUrl()}/verify-email?token=${encodeURIComponent(token)}`;
  const sent = sendEmailVerificationMail(user.email, link, VERIFICATION_VALID_HOURS).catch((error) =>
    logError("verification mail failed", error),
  );
  return { sent };
}

/** "Send the link again" from the account page: a few an hour per account. */
export async function resendVerificationLink(
  db: Db,
  user: Pick<User, "id" | "email" | "emailVerifiedAt">,
): Promise<{ sent: Promise<void> }> {
  if (user.emailVerifiedAt) throw new ApiError(409, EMAIL_ALREADY_VERIFIED_MESSAGE);
  // With no mail and no terminal to write to, a new link would reach nobody: say so rather than pretend.
  if (linkDelivery() === "nowhere") throw new ApiError(409, `${confirmationHint("nowhere")}.`);
  await enforceLimit(db, limits.verificationMailsPerUser, user.id);
  return sendVerificationLink(db, user);
}

/** Uses a link: the address it was mailed to becomes proven, if it is still the account's and nobody proved it first. */
export async function verifyEmail(db: Db, token: string, ip: string): Promise<{ userId: string; email: string }> {
  await enforceLimit(db, limits.verificationAttemptsPerIp, ip);
  try {
    return await db.transaction(async (tx) => {
      const used = await consumeVerificationToken(tx, digest(token));
      if (!used) throw new ApiError(400, VERIFICATION_INVALID_MESSAGE);
      if (!(await markEmailVerified(tx, used.userId, used.email)))
        throw new ApiError(409, EMAIL_PROVEN_ELSEWHERE_MESSAGE);
      await voidUserVerificationTokens(tx, used.userId);
      return used;
    });
  } catch (error) {
    // Two accounts proving one address at the same moment: the unique index lets one win.
    if (violatedUniqueConstraint(error) === "users_verified_email_key")
      throw new ApiError(409, EMAIL_PROVEN_ELSEWHERE_MESSAGE);
    throw error;
  }
}
