// Admin rights follow verified identities only. Registering the admin's address first
// (without being able to read its mail) gives nothing and locks nobody out; a GitHub login is not an identity.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { setDatabase } from "@/lib/database";
import { grantAdmin, parseAdminGrantee } from "@/db/queries/users";
import { emailVerificationTokens, users } from "@/db/schema";
import { isAdmin } from "@/lib/roles";
import { reloadEnv } from "@/lib/env";
import { POST as exchange } from "@/app/api/auth/callback/route";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as verify } from "@/app/api/auth/verify-email/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github";
import { startFakeSmtp, type FakeSmtp } from "../support/fake-smtp";
import { call, jsonRequest, setAuthEnv, uniqueEmail } from "../support/route-client";

const PASSWORD = "correct horse battery";
const VERIFY_SUBJECT = "Confirm your email address for Agora";

describe.each(drivers())("admin by verified identity on %s", (driver) => {
  let conn: TestConnection;
  let github: FakeGitHub;
  let smtp: FakeSmtp;
  const userRow = async (id: string) => (await conn.db.select().from(users).where(eq(users.id, id)))[0]!;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    github = await startFakeGitHub({ clientId: "test-client", clientSecret: "test-secret" });
    smtp = await startFakeSmtp();
  });
  afterAll(async () => {
    await github?.close();
    await smtp?.close();
    await conn?.close();
  });
  beforeEach(() => {
    setAuthEnv({
      RATE_LIMIT_DISABLED: "1",
      SMTP_URL: smtp.url,
      SITE_URL: "https://agora.test",
      AUTH_GITHUB_ID: "test-client",
      AUTH_GITHUB_SECRET: "test-secret",
      GITHUB_OAUTH_URL: github.url,
      GITHUB_API_URL: github.url,
    });
    delete process.env.ADMIN_EMAILS;
    delete process.env.ADMIN_GITHUB_IDS;
    reloadEnv();
  });

  async function registerAs(email: string, name = "Someone") {
    const res = await call(register, jsonRequest("/api/auth/register", { email, password: PASSWORD, name }));
    expect(res.status).toBe(201);
    return (res.body.user as { id: string }).id;
  }

  async function mailedVerificationToken(email: string): Promise<string> {
    const mail = await smtp.waitFor(email, 10_000, VERIFY_SUBJECT);
    const link = /https:\/\/agora\.test\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
    expect(link).not.toBeNull();
    return decodeURIComponent(link![1]!);
  }

  it("an address in ADMIN_EMAILS registered by a squatter gives no admin rights, and the owner's GitHub sign-in still works", async () => {
    const adminEmail = uniqueEmail("the-admin");
    process.env.ADMIN_EMAILS = adminEmail;
    reloadEnv();
    const squatterId = await registerAs(adminEmail, "Squatter");
    expect(isAdmin(await userRow(squatterId))).toBe(false);

    // The real admin signs in with GitHub, whose verified primary address it is.
    const res = await call(
      exchange,
      jsonRequest("/api/auth/callback", {
        code: github.issueCode(`admin-${randomBytes(2).toString("hex")}`, { email: adminEmail }),
      }),
    );
    expect(res.status).toBe(200);
    const ownerId = (res.body.user as { id: string }).id;
    expect(isAdmin(await userRow(ownerId))).toBe(true);

    // The squatter's link can no longer prove the address: another account proved it.
    const late = await call(
      verify,
      jsonRequest("/api/auth/verify-email", { token: await mailedVerificationToken(adminEmail) }),
    );
    expect(late.status).toBe(409);
    expect(late.body.message).toBe("Another account has already confirmed this email address.");
    expect(isAdmin(await userRow(squatterId))).toBe(false);
  });

  it("a password account's address counts once the mailed link is used: once, and only before it expires", async () => {
    const email = uniqueEmail("verifier");
    process.env.ADMIN_EMAILS = email.toUpperCase();
    reloadEnv();
    const id = await registerAs(email);
    expect((await userRow(id)).emailVerifiedAt).toBeNull();
    expect(isAdmin(await userRow(id))).toBe(false);

    const token = await mailedVerificationToken(email);
    // Stored only as a digest.
    const stored = await conn.db.select().from(emailVerificationTokens).where(eq(emailVerificationTokens.userId, id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(token);

    const ok = await call(verify, jsonRequest("/api/auth/verify-email", { token }));
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe("Your email address is confirmed.");
    expect((await userRow(id)).emailVerifiedAt).not.toBeNull();
    expect(isAdmin(await userRow(id))).toBe(true);

    const again = await call(verify, jsonRequest("/api/auth/verify-email", { token }));
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(
      "This verification link is invalid or has expired. Ask for a new one from your account page.",
    );
  });

  it("refuses an expired, unknown or malformed link with 400", async () => {
    const email = uniqueEmail("expired");
    const id = await registerAs(email);
    const token = await mailedVerificationToken(email);
    await conn.db
      .update(emailVerificationTokens)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(emailVerificationTokens.userId, id));
    expect((await call(verify, jsonRequest("/api/auth/verify-email", { token }))).status).toBe(400);
    expect((await call(verify, jsonRequest("/api/auth/verify-email", { token: "nope" }))).status).toBe(400);
    expect((await call(verify, jsonRequest("/api/auth/verify-email", { token: "x".repeat(500) }))).status).toBe(400);
    expect((await userRow(id)).emailVerifiedAt).toBeNull();
  });

  it("ADMIN_GITHUB_IDS follows GitHub's numeric id, not the login", async () => {
    const login = `idadmin-${randomBytes(2).toString("hex")}`;
    const first = await call(
      exchange,
      jsonRequest("/api/auth/callback", { code: github.issueCode(login, { email: null }) }),
    );
    const row = await userRow((first.body.user as { id: string }).id);
    expect(row.githubId).toMatch(/^\d+$/);
    process.env.ADMIN_GITHUB_IDS = `12345, ${row.githubId}`;
    reloadEnv();
    expect(isAdmin(row)).toBe(true);
    // Someone else holding the same login (after a rename) is not the admin.
    expect(isAdmin({ ...row, githubId: "999999999" })).toBe(false);
  });

  it("admin:grant names one account: a user id, github:<id>, or a proven address, never a bare login or an unproven address", async () => {
    const email = uniqueEmail("grantee");
    const id = await registerAs(email);
    expect(parseAdminGrantee("octocat")).toBeUndefined();
    expect(await grantAdmin(conn.db, parseAdminGrantee(email)!)).toBeUndefined();
    expect((await userRow(id)).role).toBe("user");

    await call(verify, jsonRequest("/api/auth/verify-email", { token: await mailedVerificationToken(email) }));
    expect(await grantAdmin(conn.db, parseAdminGrantee(email.toUpperCase())!)).toBe(id);
    expect((await userRow(id)).role).toBe("admin");

    const other = await registerAs(uniqueEmail("by-id"));
    expect(await grantAdmin(conn.db, parseAdminGrantee(other)!)).toBe(other);
    expect(parseAdminGrantee("github:583231")).toEqual({ by: "github", value: "583231" });
  });
});
