// Browser sessions, looked up by the digest of the secret in the session cookie.
import { and, eq, gt, lt } from "drizzle-orm";
import { sessions } from "../schema";
import type { Db } from "../types";

export async function insertSession(
  db: Db,
  row: { userId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  // Housekeeping on the way: the user's expired sessions go.
  await db.delete(sessions).where(and(eq(sessions.userId, row.userId), lt(sessions.expiresAt, new Date())));
  await db.insert(sessions).values(row);
}

export async function findLiveSessionUserId(db: Db, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date())));
  return row?.userId;
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
