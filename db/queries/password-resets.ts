// Password reset links: stored by digest, used at most once, before they expire.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { passwordResetTokens } from "../schema";
import type { Db } from "../types";

export async function insertResetToken(
  db: Db,
  row: { userId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(passwordResetTokens).values(row);
}

/** Marks the link used and returns its user, atomically: of two concurrent uses only one succeeds. */
export async function consumeResetToken(db: Db, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: passwordResetTokens.userId });
  return row?.userId;
}

/** Every other outstanding link for the user stops working. */
export async function voidUserResetTokens(db: Db, userId: string): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
