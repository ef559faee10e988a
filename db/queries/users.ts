// Reads and writes people and their OAuth identities.
import { and, eq, isNotNull, ne, sql } from "drizzle-orm";
import { accounts, users, type User } from "../schema";
import type { Db } from "../types";

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

/** The password account registered with this address (at most one: users_password_email_key). */
export async function findPasswordUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, isNotNull(users.passwordHash)));
  return user;
}

/** The account that has proven this address (at most one: users_verified_email_key). */
export async function findVerifiedUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, isNotNull(users.emailVerifiedAt)));
  return user;
}

/**
 * Records that the user proved `email` (still their address). False when it is no longer theirs or another
 * account proved it first (the unique index decides a race).
 */
export async function markEmailVerified(db: Db, userId: string, email: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
    .where(
      and(
        eq(users.id, userId),
        sql`lower(${users.email}) = lower(${email})`,
        sql`not exists (select 1 from ${users} other where lower(other.email) = lower(${email}) and other.email_verified_at is not null and other.id <> ${userId}::uuid)`,
      ),
    )
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Throws a unique violation (`users_password_email_key`) when a password account has the address. */
export async function insertPasswordUser(
  db: Db,
  input: { email: string; name: string; passwordHash: string },
): Promise<User> {
  const [user] = await db.insert(users).values(input).returning();
  return user!;
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

export async function findUserIdByAccount(
  db: Db,
  provider: string,
  providerAccountId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: accounts.userId })
    .from(accounts)
    .where(and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId)));
  return row?.userId;
}

export type OAuthProfile = {
  name: string | null;
  email: string | null;
  image: string | null;
  githubLogin?: string | null;
};

/** A provider's address is stored only when the provider verified it, so it counts as proven. */
export async function insertOAuthUser(
  db: Db,
  provider: string,
  providerAccountId: string,
  profile: OAuthProfile,
): Promise<string> {
  if (profile.githubLogin) await releaseGithubLogin(db, profile.githubLogin);
  const [user] = await db
    .insert(users)
    .values({
      ...profile,
      emailVerifiedAt: profile.email ? sql`now()` : null,
      githubId: provider === "github" ? providerAccountId : null,
    })
    .returning({ id: users.id });
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

/**
 * Gives one account the admin role, named unambiguously: its user id, `github:<numeric id>`, or an email
 * address its holder has proven (at most one account can have proven it). Returns the user's id, or
 * undefined when no account matches.
 */
export async function grantAdmin(db: Db, who: AdminGrantee): Promise<string | undefined> {
  const match =
    who.by === "id"
      ? eq(users.id, who.value)
      : who.by === "github"
        ? eq(users.githubId, who.value)
        : and(sql`lower(${users.email}) = lower(${who.value})`, isNotNull(users.emailVerifiedAt));
  const [row] = await db.update(users).set({ role: "admin" }).where(match).returning({ id: users.id });
  return row?.id;
}

type AdminGrantee = { by: "id" | "github" | "email"; value: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads admin:grant's argument; undefined for anything ambiguous (a bare login, a malformed id). */
export function parseAdminGrantee(raw: string): AdminGrantee | undefined {
  const value = raw.trim();
  if (UUID.test(value)) return { by: "id", value: value.toLowerCase() };
  const github = /^github:(\d{1,20})$/i.exec(value);
  if (github) return { by: "github", value: github[1]! };
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= 254) return { by: "email", value };
  return undefined;
}
