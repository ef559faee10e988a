import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { setDatabase } from "@/lib/database";
import { issueApiToken } from "@/lib/auth/api-tokens";
import { browserSessionUserId, closeBrowserSession, openBrowserSession } from "@/lib/auth/sessions";
import { requestPasswordReset } from "@/lib/auth/password-reset";
import { reloadEnv } from "@/lib/env";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as login } from "@/app/api/auth/login/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startFakeSmtp, type FakeSmtp } from "../support/fake-smtp";
import { call, inProduction, jsonRequest, setAuthEnv, uniqueEmail } from "../support/route-client";

const PASSWORD = "Plain-Text-Canary-42";

describe.each(drivers())("secrets at rest on %s", (driver) => {
  let conn: TestConnection;
  let smtp: FakeSmtp;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    smtp = await startFakeSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
    await conn?.close();
  });

  /** Every value in every table of the public schema, as text. */
  async function everythingStored(): Promise<string> {
    const tables = await conn.db.execute<{ tablename: string }>(
      sql`select tablename from pg_tables where schemaname = 'public'`,
    );
    const names = (Array.isArray(tables) ? tables : (tables as unknown as { rows: { tablename: string }[] }).rows).map(
      (t) => t.tablename,
    );
    let dump = "";
    for (const name of names) {
      const rows = await conn.db.execute(sql.raw(`select * from "${name}"`));
      dump += JSON.stringify(Array.isArray(rows) ? rows : (rows as unknown as { rows: unknown[] }).rows);
    }
    return dump;
  }

  it("stores no password, API token, session secret or reset token in plain text", async () => {
    setAuthEnv({ RATE_LIMIT_DISABLED: "1", SMTP_URL: smtp.url, SITE_URL: "https://agora.test" });
    reloadEnv();
    const email = uniqueEmail("canary");
    const registered = await call(
      register,
      jsonRequest("/api/auth/register", { email, password: PASSWORD, name: "Canary" }),
    );
    const signedIn = await call(login, jsonRequest("/api/auth/login", { email, password: PASSWORD }));
    const userId = (registered.body.user as { id: string }).id;
    const personal = await issueApiToken(conn.db, { userId, kind: "personal", name: "canary token", days: 30 });
    const session = await openBrowserSession(conn.db, userId);
    await (
      await requestPasswordReset(conn.db, email, "203.0.113.1")
    ).sent;
    const resetToken = /token=([A-Za-z0-9_-]+)/.exec(
      (await smtp.waitFor(email, 10_000, "Reset your Agora password")).text,
    )![1]!;

    const verifyToken = /token=([A-Za-z0-9_-]+)/.exec(
      (await smtp.waitFor(email, 10_000, "Confirm your email address for Agora")).text,
    )![1]!;

    const secrets = [
      PASSWORD,
      registered.body.token as string,
      signedIn.body.token as string,
      personal.token,
      session,
      resetToken,
      verifyToken,
    ];
    const dump = await everythingStored();
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(20);
      expect(dump).not.toContain(secret);
      // Nor a long piece of one (the display prefix of a token is 10 characters, well short of this).
      expect(dump).not.toContain(secret.slice(-16));
    }
    expect(dump).toMatch(/scrypt\$32768\$8\$1\$/);
    await closeBrowserSession(conn.db, session);
    expect(await browserSessionUserId(conn.db, session)).toBeNull();
  });

  it("salts password hashes: the same password hashes differently for two accounts", async () => {
    setAuthEnv({ RATE_LIMIT_DISABLED: "1" });
    reloadEnv();
    for (const label of ["twin-a", "twin-b"]) {
      await call(
        register,
        jsonRequest("/api/auth/register", { email: uniqueEmail(label), password: "same password twice", name: label }),
      );
    }
    const rows = await conn.db.execute<{ password_hash: string }>(
      sql`select password_hash from users where name like 'twin-%'`,
    );
    const hashes = (Array.isArray(rows) ? rows : (rows as unknown as { rows: { password_hash: string }[] }).rows).map(
      (r) => r.password_hash,
    );
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).not.toBe(hashes[1]);
  });

  it("never logs the reset link in production, even without SMTP", async () => {
    setAuthEnv({ RATE_LIMIT_DISABLED: "1" });
    const email = uniqueEmail("quiet");
    reloadEnv();
    await call(register, jsonRequest("/api/auth/register", { email, password: "quiet password", name: "Quiet" }));
    const lines: string[] = [];
    const capture = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    const spies = [
      vi.spyOn(console, "log").mockImplementation(capture),
      vi.spyOn(console, "warn").mockImplementation(capture),
    ];
    try {
      await inProduction(async () => (await requestPasswordReset(conn.db, email, "203.0.113.2")).sent);
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
    const logged = lines.join("\n");
    expect(logged).toMatch(/password reset mail not sent: SMTP_URL is not set/);
    expect(logged).not.toMatch(/token=|reset-password\?/);
    expect(logged).not.toContain(email);
  });
});
