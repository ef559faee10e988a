import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { setDatabase } from "@/lib/database";
import { apiTokens, passwordResetTokens, sessions, users } from "@/db/schema";
import { openBrowserSession, browserSessionUserId } from "@/lib/auth/sessions";
import { reloadEnv } from "@/lib/env";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as forgot } from "@/app/api/auth/forgot-password/route";
import { POST as reset } from "@/app/api/auth/reset-password/route";
import { POST as createAgent } from "@/app/api/mcp-agents/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startFakeSmtp, type FakeSmtp } from "../support/fake-smtp";
import { call, jsonRequest, setAuthEnv, uniqueEmail } from "../support/route-client";

const OLD = "old password here";
const NEW = "brand new passphrase";
const SAME_ANSWER = { message: "If an account exists for that email, we sent a link to reset its password." };

describe.each(drivers())("password reset on %s", (driver) => {
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
  beforeEach(() => {
    setAuthEnv({ RATE_LIMIT_DISABLED: "1", SMTP_URL: smtp.url, SITE_URL: "https://agora.test" });
    reloadEnv();
  });

  async function account() {
    const email = uniqueEmail("reset");
    const res = await call(register, jsonRequest("/api/auth/register", { email, password: OLD, name: "Reset Tester" }));
    return { email, token: res.body.token as string, userId: (res.body.user as { id: string }).id };
  }

  async function mailedToken(email: string): Promise<string> {
    const mail = await smtp.waitFor(email, 10_000, "Reset your Agora password");
    expect(mail.subject).toBe("Reset your Agora password");
    const link = /https:\/\/agora\.test\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
    expect(link).not.toBeNull();
    return decodeURIComponent(link![1]!);
  }

  it("answers the same for a known and an unknown address, and mails only the known one", async () => {
    const { email } = await account();
    const nobody = uniqueEmail("nobody");
    const known = await call(forgot, jsonRequest("/api/auth/forgot-password", { email }));
    const unknown = await call(forgot, jsonRequest("/api/auth/forgot-password", { email: nobody }));
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(known.body).toEqual(SAME_ANSWER);
    expect(unknown.body).toEqual(SAME_ANSWER);
    await mailedToken(email);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages.some((m) => m.to.includes(nobody))).toBe(false);
  });

  it("sets the new password with the mailed link; the old one stops working", async () => {
    const { email } = await account();
    await call(forgot, jsonRequest("/api/auth/forgot-password", { email }));
    const token = await mailedToken(email);
    const res = await call(reset, jsonRequest("/api/auth/reset-password", { token, password: NEW }));
    expect(res.status).toBe(200);
    expect((await call(login, jsonRequest("/api/auth/login", { email, password: OLD }))).status).toBe(401);
    expect((await call(login, jsonRequest("/api/auth/login", { email, password: NEW }))).status).toBe(200);
  });

  it("ends every browser session and API token of the account", async () => {
    const { email, token: apiToken, userId } = await account();
    const session = await openBrowserSession(conn.db, userId);
    expect(await browserSessionUserId(conn.db, session)).toBe(userId);
    await call(forgot, jsonRequest("/api/auth/forgot-password", { email }));
    await call(reset, jsonRequest("/api/auth/reset-password", { token: await mailedToken(email), password: NEW }));
    expect(await browserSessionUserId(conn.db, session)).toBeNull();
    const agent = await call(
      createAgent,
      jsonRequest(
        "/api/mcp-agents",
        {
          name: "After reset",
          description: "Should be refused now.",
          mcpServerUrl: "https://after-reset.example.com/mcp",
          categories: "",
        },
        { authorization: `Bearer ${apiToken}` },
      ),
    );
    expect(agent.status).toBe(401);
    const left = await conn.db
      .select({ n: sql<number>`count(*)::int` })
      .from(apiTokens)
      .where(eq(apiTokens.userId, userId));
    expect(left[0]!.n).toBe(0);
    expect((await conn.db.select().from(sessions).where(eq(sessions.userId, userId))).length).toBe(0);
  });

  it("works once: a used link is refused and changes nothing", async () => {
    const { email } = await account();
    await call(forgot, jsonRequest("/api/auth/forgot-password", { email }));
    const token = await mailedToken(email);
    expect((await call(reset, jsonRequest("/api/auth/reset-password", { token, password: NEW }))).status).toBe(200);
    const again = await call(reset, jsonRequest("/api/auth/reset-password", { token, password: "third password!" }));
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("This reset link is invalid or has expired. Ask for a new one.");
    expect((await call(login, jsonRequest("/api/auth/login", { email, password: NEW }))).status).toBe(200);
  });

  it("only one of two concurrent uses of a link succeeds", async () => {
    const { email } = await account();
    await call(forgot, jsonRequest("/api/auth/forgot-password", { email }));
    const token = await mailedToken(email);
    const results = await Promise.all([
      call(reset, jsonRequest("/api/auth/reset-password", { token, password: "first racer pw" })),
      call(reset, jsonRequest("/api/auth/reset-password", { token, password: "second racer pw" })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it("expires after 30 minutes", async () => {
    const { email, userId } = await account();
    await call(forgot, jsonRequest("/api/auth/forgot-password", { email }));
    const token = await mailedToken(email);
    await conn.db
      .update(passwordResetTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResetTokens.userId, userId));
    const res = await call(reset, jsonRequest("/api/auth/reset-password", { token, password: NEW }));
    expect(res.status).toBe(400);
    expect((await call(login, jsonRequest("/api/auth/login", { email, password: OLD }))).status).toBe(200);
  });

  it("issues links valid for 30 minutes and voids older links once one is used", async () => {
    const { email, userId } = await account();
    await call(forgot, jsonRequest("/api/auth/forgot-password", { email }));
    const first = await mailedToken(email);
    smtp.messages.splice(0, smtp.messages.length);
    await call(forgot, jsonRequest("/api/auth/forgot-password", { email }));
    const second = await mailedToken(email);
    expect(second).not.toBe(first);
    const rows = await conn.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
    for (const row of rows) {
      const minutes = (row.expiresAt.getTime() - row.createdAt.getTime()) / 60_000;
      expect(minutes).toBeGreaterThan(29.9);
      expect(minutes).toBeLessThan(30.1);
    }
    expect((await call(reset, jsonRequest("/api/auth/reset-password", { token: second, password: NEW }))).status).toBe(
      200,
    );
    expect(
      (await call(reset, jsonRequest("/api/auth/reset-password", { token: first, password: "another one!" }))).status,
    ).toBe(400);
  });

  it.each([
    [
      "an unknown token",
      { token: "x".repeat(43), password: NEW },
      400,
      "This reset link is invalid or has expired. Ask for a new one.",
    ],
    ["an empty token", { token: "", password: NEW }, 400, "This reset link is invalid or has expired."],
    [
      "a weak new password",
      { token: "x".repeat(43), password: "12345678" },
      400,
      "This password is too common. Choose one that is harder to guess.",
    ],
  ])("refuses %s", async (_label, body, status, message) => {
    const res = await call(reset, jsonRequest("/api/auth/reset-password", body));
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it("refuses a weak password without using up the link", async () => {
    const { email } = await account();
    await call(forgot, jsonRequest("/api/auth/forgot-password", { email }));
    const token = await mailedToken(email);
    expect((await call(reset, jsonRequest("/api/auth/reset-password", { token, password: "password" }))).status).toBe(
      400,
    );
    expect((await call(reset, jsonRequest("/api/auth/reset-password", { token, password: NEW }))).status).toBe(200);
  });

  it("limits reset requests per client address and per account with 429", async () => {
    setAuthEnv({ SMTP_URL: smtp.url, SITE_URL: "https://agora.test" });
    reloadEnv();
    const ip = { "x-agora-client-address": "203.0.113.50" };
    for (let i = 0; i < 5; i++)
      expect((await call(forgot, jsonRequest("/api/auth/forgot-password", { email: uniqueEmail() }, ip))).status).toBe(
        200,
      );
    const perIp = await call(forgot, jsonRequest("/api/auth/forgot-password", { email: uniqueEmail() }, ip));
    expect(perIp.status).toBe(429);
    expect(perIp.body.message).toMatch(/^Too many password reset requests\. Try again in/);
    expect(perIp.headers.get("retry-after")).toMatch(/^\d+$/);

    const target = uniqueEmail("target");
    for (let i = 0; i < 3; i++)
      expect((await call(forgot, jsonRequest("/api/auth/forgot-password", { email: target }))).status).toBe(200);
    const perAccount = await call(forgot, jsonRequest("/api/auth/forgot-password", { email: target.toUpperCase() }));
    expect(perAccount.status).toBe(429);
    expect(perAccount.body.message).toMatch(/^Too many password reset requests for this address\./);
  });

  it("without SMTP, says where the link went instead of claiming a mail, the same for any address, and keeps the account untouched", async () => {
    setAuthEnv({ RATE_LIMIT_DISABLED: "1" });
    reloadEnv();
    const { email, userId } = await account();
    const res = await call(forgot, jsonRequest("/api/auth/forgot-password", { email }));
    const noMail = {
      message:
        "If an account exists for that email, its reset link is in this server's terminal: it sends no mail (SMTP_URL is not set).",
    };
    expect(res.body).toEqual(noMail);
    expect(
      (await call(forgot, jsonRequest("/api/auth/forgot-password", { email: uniqueEmail("nobody") }))).body,
    ).toEqual(noMail);
    const [user] = await conn.db.select().from(users).where(eq(users.id, userId));
    expect(user!.passwordHash).toMatch(/^scrypt\$/);
  });
});
