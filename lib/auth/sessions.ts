// Browser sessions that the server can end. Auth.js keeps its encrypted JWT cookie, but the cookie only
// carries a random session secret; every request checks that secret's digest against the `sessions`
// table, so signing out, a password reset or deleting the row ends the session on the next request
// (a bare JWT would stay valid until it expires).
import type { Db } from "@/db/types";
import { deleteSession, findLiveSessionUserId, insertSession } from "@/db/queries/sessions";
import { digest, randomSecret } from "@/lib/secrets";

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** Opens a session for `userId`; returns the secret that goes into the session cookie. */
export async function openBrowserSession(db: Db, userId: string): Promise<string> {
  const secret = randomSecret();
  await insertSession(db, {
    userId,
    tokenHash: digest(secret),
    expiresAt: new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
  });
  return secret;
}

/** The signed-in user's id, or null when the session was ended, expired or never existed. */
export async function browserSessionUserId(db: Db, secret: string): Promise<string | null> {
  return (await findLiveSessionUserId(db, digest(secret))) ?? null;
}

export async function closeBrowserSession(db: Db, secret: string): Promise<void> {
  await deleteSession(db, digest(secret));
}
