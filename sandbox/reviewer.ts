// The sandbox's reviewer: an admin account with a proven address and a fresh password each run, printed with the
// sandbox's other addresses, so approving a submission in the sandbox is one step (sign in, open /admin). The
// address is under a reserved name (.example): no mail to it ever leaves the machine.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/types";
import { users } from "@/db/schema";
import { findPasswordUserByEmail, insertPasswordUser } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/passwords";

export const REVIEWER_EMAIL = "reviewer@sandbox.example";

export async function ensureReviewer(
  db: Db,
  email = REVIEWER_EMAIL,
): Promise<{ email: string; password: string; id: string }> {
  const password = randomBytes(12).toString("base64url");
  const passwordHash = await hashPassword(password, { address: "127.0.0.1", account: email });
  const existing = await findPasswordUserByEmail(db, email);
  const id = existing?.id ?? (await insertPasswordUser(db, { email, name: "Sandbox reviewer", passwordHash })).id;
  await db
    .update(users)
    .set({ passwordHash, role: "admin", emailVerifiedAt: existing?.emailVerifiedAt ?? new Date() })
    .where(eq(users.id, id));
  return { email, password, id };
}
