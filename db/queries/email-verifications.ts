// Email verification links: stored by digest, used at most once, before they expire.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { emailVerificationTokens } from "../schema";
import type { Db } from "../types";

export async function insertVerificationToken(
  db: Db,
  row: { userId: string; email: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(emailVerificationTokens).values(row);
}

/** Marks the link used and returns whom and which address it proves, atomically (one of two concurrent uses wins). */
export async function consumeVerificationToken(
  db: Db,
  tokenHash: string,
): Promise<{ userId: string; email: string } | undefined> {
  const [row] = await db
    .update(emailVerificationTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailVerificationTokens.tokenHash, tokenHash),
        isNull(emailVerificationTokens.usedAt),
        gt(emailVerificationTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: emailVerificationTokens.userId, email: emailVerificationTokens.email });
  return row;
}

/** Every other outstanding link for the user stops working. */
export async function voidUserVerificationTokens(db: Db, userId: string): Promise<void> {
  await db
    .update(emailVerificationTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailVerificationTokens.userId, userId), isNull(emailVerificationTokens.usedAt)));
}
