import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { setDatabase } from "@/lib/database";
import { apiTokens, users } from "@/db/schema";
import { reloadEnv } from "@/lib/env";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as login } from "@/app/api/auth/login/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { call, jsonRequest, setAuthEnv, uniqueEmail } from "../support/route-client";

const PASSWORD = "correct horse battery";

describe.each(drivers())("email accounts on %s", (driver) => {
  let conn: TestConnection;
  const count = async (table: typeof users | typeof apiTokens) =>
    (await conn.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
  });
  afterAll(async () => conn?.close());
  beforeEach(() => {
    setAuthEnv({ RATE_LIMIT_DISABLED: "1" });
    reloadEnv();
  });

  describe("POST /api/auth/register", () => {
    it("creates the account and answers 201 with a bearer token", async () => {
      const email = uniqueEmail("new");
      const res = await call(
        register,
        jsonRequest("/api/auth/register", { email, password: PASSWORD, name: "Ada Lovelace" }),
      );
      expect(res.status).toBe(201);
      expect(res.body.token).toMatch(/^agora_[A-Za-z0-9_-]{43}$/);
      expect(res.body.tokenType).toBe("Bearer");
      expect(new Date(res.body.expiresAt as string).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
      expect(res.body.user).toMatchObject({ email, name: "Ada Lovelace" });
    });

    it("refuses a taken address whatever its case with 409, and saves nothing", async () => {
      const email = uniqueEmail("taken");
      expect(
        (await call(register, jsonRequest("/api/auth/register", { email, password: PASSWORD, name: "First" }))).status,
      ).toBe(201);
      const [usersBefore, tokensBefore] = [await count(users), await count(apiTokens)];
      const res = await call(
        register,
        jsonRequest("/api/auth/register", { email: email.toUpperCase(), password: PASSWORD, name: "Second" }),
      );
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("email_taken");
      expect([await count(users), await count(apiTokens)]).toEqual([usersBefore, tokensBefore]);
    });

    it.each([
      ["a short password", { password: "short1" }, "password", "Password must be at least 8 characters."],
      [
        "a common password",
        { password: "Password123" },
        "password",
        "This password is too common. Choose one that is harder to guess.",
      ],
      ["an overlong password", { password: "x".repeat(201) }, "password", "Password must be at most 200 characters."],
      ["a bad email", { email: "not-an-email" }, "email", "Invalid email address"],
      ["a blank name", { name: "   " }, "name", "Please enter your name."],
      ["a name of control characters only", { name: "\u0000\u0007" }, "name", "Please enter your name."],
      ["a missing password", { password: undefined }, "password", undefined],
    ])("refuses %s with 400 and the field's message", async (_label, patch, field, message) => {
      const before = await count(users);
      const res = await call(
        register,
        jsonRequest("/api/auth/register", { email: uniqueEmail(), password: PASSWORD, name: "N", ...patch }),
      );
      expect(res.status).toBe(400);
      expect(res.body.errors?.[field]).toBeDefined();
      if (message) expect(res.body.message).toBe(message);
      expect(await count(users)).toBe(before);
    });

    it("stores unicode and script-like names as text, unchanged", async () => {
      const name = "Zoë 🚀 <script>alert('x')</script> Ωmega";
      const res = await call(
        register,
        jsonRequest("/api/auth/register", { email: uniqueEmail("uni"), password: "pässwörd-ünïcode", name }),
      );
      expect(res.status).toBe(201);
      const [row] = await conn.db
        .select()
        .from(users)
        .where(eq(users.id, (res.body.user as { id: string }).id));
      expect(row!.name).toBe(name);
    });

    it.each([
      ["malformed JSON", "{email:", {}, 400, "Request body is not valid JSON."],
      [
        "a form post",
        "email=a%40b.co",
        { "content-type": "application/x-www-form-urlencoded" },
        415,
        "Content-Type must be application/json.",
      ],
      [
        "a body over 16 KB",
        JSON.stringify({ email: "a@b.co", password: PASSWORD, name: "x".repeat(17_000) }),
        {},
        413,
        "Request body must be at most 16 KB.",
      ],
      ["a JSON array", "[]", {}, 400, undefined],
    ])("refuses %s", async (_label, body, headers, status, message) => {
      const before = await count(users);
      const res = await call(register, jsonRequest("/api/auth/register", body, headers as Record<string, string>));
      expect(res.status).toBe(status);
      expect(typeof res.body.message).toBe("string");
      if (message) expect(res.body.message).toBe(message);
      expect(await count(users)).toBe(before);
    });

    it("limits registrations per address with 429 and Retry-After", async () => {
      setAuthEnv();
      reloadEnv();
      const ip = { "x-agora-client-address": "203.0.113.10" };
      for (let i = 0; i < 5; i++) {
        expect(
          (
            await call(
              register,
              jsonRequest("/api/auth/register", { email: uniqueEmail(), password: PASSWORD, name: "R" }, ip),
            )
          ).status,
        ).toBe(201);
      }
      const before = await count(users);
      const res = await call(
        register,
        jsonRequest("/api/auth/register", { email: uniqueEmail(), password: PASSWORD, name: "R" }, ip),
      );
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(res.body.message).toMatch(/^Too many accounts created from this address\. Try again in \d+ minutes\.$/);
      expect(await count(users)).toBe(before);
    });
  });

  describe("POST /api/auth/login", () => {
    let email: string;
    beforeAll(async () => {
      email = uniqueEmail("login");
      setAuthEnv({ RATE_LIMIT_DISABLED: "1" });
      reloadEnv();
      await call(register, jsonRequest("/api/auth/register", { email, password: PASSWORD, name: "Login Tester" }));
    });

    it("answers 200 with a fresh token for the right password, whatever the address's case", async () => {
      const res = await call(login, jsonRequest("/api/auth/login", { email: email.toUpperCase(), password: PASSWORD }));
      expect(res.status).toBe(200);
      expect(res.body.token).toMatch(/^agora_/);
      expect(res.body.user).toMatchObject({ email });
    });

    it("answers 401 'Invalid email or password.' for a wrong password and for an unknown account alike", async () => {
      const wrong = await call(login, jsonRequest("/api/auth/login", { email, password: "not the password" }));
      const unknown = await call(
        login,
        jsonRequest("/api/auth/login", { email: uniqueEmail("nobody"), password: PASSWORD }),
      );
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: "invalid_credentials", message: "Invalid email or password." });
      }
    });

    it("answers 400 for a missing password without counting it as a failure", async () => {
      const res = await call(login, jsonRequest("/api/auth/login", { email }));
      expect(res.status).toBe(400);
    });

    it("after 10 failures in 15 minutes locks that client out of the account, even for the right password, but not the owner elsewhere", async () => {
      const target = uniqueEmail("locked");
      await call(register, jsonRequest("/api/auth/register", { email: target, password: PASSWORD, name: "Locked" }));
      setAuthEnv(); // limits on from here
      reloadEnv();
      const attacker = { "x-agora-client-address": "198.51.100.66" };
      for (let i = 0; i < 10; i++)
        expect(
          (await call(login, jsonRequest("/api/auth/login", { email: target, password: `wrong-${i}` }, attacker)))
            .status,
        ).toBe(401);
      const res = await call(login, jsonRequest("/api/auth/login", { email: target, password: PASSWORD }, attacker));
      expect(res.status).toBe(429);
      expect(res.body.message).toMatch(
        /^Too many failed sign-in attempts for this account\. Try again in \d+ minutes\.$/,
      );
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(800);
      // A stranger's failures must not keep the owner out. From the owner's own address the right
      // password still signs in (and a wrong one is still only a 401).
      const owner = { "x-agora-client-address": "203.0.113.200" };
      expect(
        (await call(login, jsonRequest("/api/auth/login", { email: target, password: "still-wrong" }, owner))).status,
      ).toBe(401);
      expect(
        (await call(login, jsonRequest("/api/auth/login", { email: target, password: PASSWORD }, owner))).status,
      ).toBe(200);
    });

    it("limits failures per client address across accounts", async () => {
      setAuthEnv();
      reloadEnv();
      const ip = { "x-agora-client-address": "203.0.113.99" };
      for (let i = 0; i < 30; i++)
        await call(login, jsonRequest("/api/auth/login", { email: uniqueEmail("spray"), password: "guess-guess" }, ip));
      const res = await call(login, jsonRequest("/api/auth/login", { email, password: PASSWORD }, ip));
      expect(res.status).toBe(429);
      expect(res.body.message).toMatch(/^Too many failed sign-in attempts\./);
      // Another address is unaffected.
      expect((await call(login, jsonRequest("/api/auth/login", { email, password: PASSWORD }))).status).toBe(200);
    });
  });
});
