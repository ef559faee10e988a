import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { setDatabase } from "@/lib/database";
import { accounts, users } from "@/db/schema";
import { reloadEnv } from "@/lib/env";
import { POST as exchange } from "@/app/api/auth/callback/route";
import { POST as register } from "@/app/api/auth/register/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github";
import { call, jsonRequest, setAuthEnv, uniqueEmail } from "../support/route-client";

describe.each(drivers())("POST /api/auth/callback (GitHub code exchange) on %s", (driver) => {
  let conn: TestConnection;
  let github: FakeGitHub;
  const configured = () => ({
    RATE_LIMIT_DISABLED: "1",
    AUTH_GITHUB_ID: "test-client",
    AUTH_GITHUB_SECRET: "test-secret",
    GITHUB_OAUTH_URL: github.url,
    GITHUB_API_URL: github.url,
  });
  const post = (body: unknown, headers?: Record<string, string>) =>
    call(exchange, jsonRequest("/api/auth/callback", body, headers));

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    github = await startFakeGitHub({ clientId: "test-client", clientSecret: "test-secret" });
  });
  afterAll(async () => {
    await github?.close();
    await conn?.close();
  });
  beforeEach(() => {
    setAuthEnv(configured());
    reloadEnv();
  });

  it("exchanges a code for a token, creating the user once and linking the GitHub account by id", async () => {
    const login = `octo-${randomBytes(3).toString("hex")}`;
    const first = await post({ code: github.issueCode(login) });
    expect(first.status).toBe(200);
    expect(first.body.token).toMatch(/^agora_/);
    expect(first.body.user).toMatchObject({ email: `${login}@users.example.com` });
    const second = await post({ code: github.issueCode(login) });
    expect(second.status).toBe(200);
    expect((second.body.user as { id: string }).id).toBe((first.body.user as { id: string }).id);
    const rows = await conn.db
      .select()
      .from(users)
      .where(sql`lower(${users.githubLogin}) = ${login}`);
    expect(rows).toHaveLength(1);
    const links = await conn.db.select().from(accounts).where(eq(accounts.userId, rows[0]!.id));
    expect(links).toEqual([expect.objectContaining({ provider: "github" })]);
  });

  it("checks PKCE when the client used it", async () => {
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const wrong = await post({
      code: github.issueCode("pkce-user", { challenge }),
      codeVerifier: randomBytes(32).toString("base64url"),
    });
    expect(wrong.status).toBe(401);
    const right = await post({ code: github.issueCode("pkce-user", { challenge }), codeVerifier: verifier });
    expect(right.status).toBe(200);
  });

  it("answers 401 'Failed to authenticate with GitHub. Please try again.' for a bad or reused code", async () => {
    const code = github.issueCode("reuse-user");
    expect((await post({ code })).status).toBe(200);
    for (const body of [{ code }, { code: "not-a-real-code" }]) {
      const res = await post(body);
      expect(res.status).toBe(401);
      // The spec fixes this sentence (the failed code exchange's toast).
      expect(res.body).toEqual({
        code: "unauthorized",
        message: "Failed to authenticate with GitHub. Please try again.",
      });
    }
  });

  it("answers 502 when GitHub cannot be reached, and 503 when GitHub is not configured", async () => {
    setAuthEnv({ ...configured(), GITHUB_OAUTH_URL: "http://127.0.0.1:9" });
    reloadEnv();
    expect((await post({ code: "abc" })).status).toBe(502);
    setAuthEnv({ RATE_LIMIT_DISABLED: "1" });
    reloadEnv();
    const res = await post({ code: "abc" });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("unavailable");
  });

  it("refuses to merge into an account that has proven the address (409) and creates nothing", async () => {
    const email = uniqueEmail("collide");
    const owner = await call(
      register,
      jsonRequest("/api/auth/register", { email, password: "long enough pw", name: "Email Owner" }),
    );
    // The owner used the link mailed to the address.
    await conn.db
      .update(users)
      .set({ emailVerifiedAt: new Date() })
      .where(eq(users.id, (owner.body.user as { id: string }).id));
    const before = (await conn.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n;
    const res = await post({ code: github.issueCode(`collider-${randomBytes(2).toString("hex")}`, { email }) });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("email_taken");
    expect((await conn.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n).toBe(before);
  });

  it("is not refused because someone registered the address first without proving it (issue 15)", async () => {
    const email = uniqueEmail("squatted");
    const squatter = await call(
      register,
      jsonRequest("/api/auth/register", { email, password: "long enough pw", name: "Squatter" }),
    );
    expect(squatter.status).toBe(201);
    const login = `owner-${randomBytes(2).toString("hex")}`;
    const res = await post({ code: github.issueCode(login, { email }) });
    expect(res.status).toBe(200);
    const owner = res.body.user as { id: string; email: string };
    expect(owner.email).toBe(email);
    expect(owner.id).not.toBe((squatter.body.user as { id: string }).id);
    const [row] = await conn.db.select().from(users).where(eq(users.id, owner.id));
    expect(row!.emailVerifiedAt).not.toBeNull();
    const [claim] = await conn.db
      .select()
      .from(users)
      .where(eq(users.id, (squatter.body.user as { id: string }).id));
    expect(claim!.emailVerifiedAt).toBeNull();
  });

  it("does not keep an address GitHub has not verified", async () => {
    const login = `unverified-${randomBytes(2).toString("hex")}`;
    const res = await post({ code: github.issueCode(login, { email: `${login}@example.com`, emailVerified: false }) });
    expect(res.status).toBe(200);
    expect((res.body.user as { email: string | null }).email).toBeNull();
  });

  it.each([
    ["a missing code", {}, 400],
    ["an empty code", { code: "" }, 400],
    ["an overlong code", { code: "c".repeat(600) }, 400],
  ])("refuses %s", async (_label, body, status) => {
    expect((await post(body)).status).toBe(status);
  });

  it("limits code exchanges per client address", async () => {
    setAuthEnv({ ...configured(), RATE_LIMIT_DISABLED: undefined });
    reloadEnv();
    const ip = { "x-agora-client-address": "203.0.113.77" };
    for (let i = 0; i < 20; i++) await post({ code: "bogus" }, ip);
    const res = await post({ code: github.issueCode("limited-user") }, ip);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
