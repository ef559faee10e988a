// Reads and writes people and their OAuth identities.
import { and, eq, ne, sql } from "drizzle-orm";
import { accounts, users, type User } from "../schema";
import type { Db } from "../types";

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return user;
}

/** Throws a unique violation (`users_email_key`) when the address is taken. */
export async function insertPasswordUser(db: Db, input: { email: string; name: string; passwordHash: string }): Promise<User> {
  const [user] = await db.insert(users).values(input).returning();
  return user!;
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

export async function findUserIdByAccount(db: Db, provider: string, providerAccountId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: accounts.userId })
    .from(accounts)
    .where(and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId)));
  return row?.userId;
}

export type OAuthProfile = { name: string | null; email: string | null; image: string | null; githubLogin?: string | null };

export async function insertOAuthUser(db: Db, provider: string, providerAccountId: string, profile: OAuthProfile): Promise<string> {
  if (profile.githubLogin) await releaseGithubLogin(db, profile.githubLogin);
  const [user] = await db.insert(users).values(profile).returning({ id: users.id });
  await db.insert(accounts).values({ userId: user!.id, provider, providerAccountId });
  return user!.id;
}

/** Keeps the profile current at each sign-in; the e-mail address stays as first recorded. */
export async function refreshOAuthProfile(db: Db, userId: string, profile: OAuthProfile): Promise<void> {
  if (profile.githubLogin) await releaseGithubLogin(db, profile.githubLogin, userId);
  await db
    .update(users)
    .set({
      image: profile.image,
      ...(profile.githubLogin ? { githubLogin: profile.githubLogin } : {}),
    })
    .where(eq(users.id, userId));
}

// GitHub logins can be renamed and later taken by someone else: the newest holder keeps the name.
async function releaseGithubLogin(db: Db, login: string, keepUserId?: string): Promise<void> {
  const held = sql`lower(${users.githubLogin}) = lower(${login})`;
  await db
    .update(users)
    .set({ githubLogin: null })
    .where(keepUserId ? and(held, ne(users.id, keepUserId)) : held);
}
