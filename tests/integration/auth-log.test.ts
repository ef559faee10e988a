// Auth.js's endpoints called with the malformed requests of the audit's sweep: each is answered, and logged as one
// warn line without a stack (the client's mistake), while a fault of the server (a database that fails while a
// session is looked up) is still an error with its stack.
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { encode } from "next-auth/jwt";
import { GET, POST } from "@/app/api/nextauth/[...nextauth]/route";
import { reloadEnv } from "@/lib/env";
import { setDatabase } from "@/lib/database";
import { clientFault } from "@/lib/auth/auth-log";
import { openTestDatabase, type TestConnection } from "../support/databases";
import { setAuthEnv } from "../support/route-client";

const SECRET = "auth-log-test-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";
let conn: TestConnection;
let lines: { stream: "error" | "warn" | "log"; text: string }[] = [];

beforeAll(async () => {
  conn = await openTestDatabase("pglite");
  setDatabase(conn);
  // GitHub configured (never reached: each request here fails its checks first), so its callback is judged too.
  setAuthEnv({
    AUTH_SECRET: SECRET,
    SITE_URL: ORIGIN,
    AUTH_TRUST_HOST: "true",
    AUTH_GITHUB_ID: "id",
    AUTH_GITHUB_SECRET: "secret",
    GITHUB_OAUTH_URL: "http://127.0.0.1:9",
    GITHUB_API_URL: "http://127.0.0.1:9",
  });
  reloadEnv();
});
afterAll(async () => conn?.close());

function capture() {
  lines = [];
  for (const stream of ["error", "warn", "log"] as const) {
    vi.spyOn(console, stream).mockImplementation(
      (...args: unknown[]) => void lines.push({ stream, text: args.map(String).join(" ") }),
    );
  }
}
afterEach(() => vi.restoreAllMocks());

const ctx = (path: string) => ({ params: Promise.resolve({ nextauth: path.split("/").filter(Boolean).slice(2) }) });
const get = (path: string, headers: Record<string, string> = {}) =>
  GET(new NextRequest(`${ORIGIN}${path}`, { headers }), ctx(path));
const post = (
  path: string,
  body: string,
  type = "application/x-www-form-urlencoded",
  headers: Record<string, string> = {},
) =>
  POST(
    new NextRequest(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": type, origin: ORIGIN, ...headers },
      body,
    }),
    ctx(path),
  );

describe("Auth.js's log for malformed requests", () => {
  it("writes one warn line without a stack for each, never an error", async () => {
    capture();
    const answers = [
      await post("/api/nextauth/signout", "csrfToken=forged"),
      await post("/api/nextauth/signin/github", "csrfToken=forged&callbackUrl=%2F"),
      await post("/api/nextauth/callback/password", "email=a%40b.co&password=x&csrfToken=forged"),
      await get("/api/nextauth/callback/github?code=abc&state=forged"),
      await get("/api/nextauth/signin?callbackUrl=javascript:alert(1)"),
      await get("/api/nextauth/session", { cookie: "authjs.session-token=not-a-jwe" }),
      await post("/api/nextauth/session", "{not json", "application/json"),
      await get("/api/nextauth/nope"),
    ];
    for (const answer of answers) expect(answer.status).toBeLessThan(500);
    expect(lines.filter((l) => l.stream === "error").map((l) => l.text)).toEqual([]);
    const warned = lines.filter((l) => l.text.includes("auth.js: refused a malformed request"));
    expect(warned).toHaveLength(answers.length);
    for (const line of lines) expect(line.text).not.toMatch(/\n\s+at |"stack"/);
  });

  it("keeps a fault of the server at error level, with its stack", async () => {
    // A session cookie that decrypts, looked up in a database that is gone.
    const token = await encode({
      token: { sub: "00000000-0000-4000-8000-000000000000", sid: "s".repeat(43) },
      secret: SECRET,
      salt: "authjs.session-token",
    });
    const broken = await openTestDatabase("pglite");
    await broken.close();
    setDatabase(broken);
    capture();
    try {
      await get("/api/nextauth/session", { cookie: `authjs.session-token=${token}` });
    } finally {
      setDatabase(conn);
    }
    const errors = lines.filter((l) => l.stream === "error" && l.text.includes('"msg":"auth.js"'));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.text).toContain('"stack"');
  });

  it("tells a client's mistake from a fault by its type and cause", () => {
    const typed = (type: string, cause?: unknown) => Object.assign(new Error("x", { cause }), { type });
    expect(clientFault(typed("MissingCSRF"))).toBe("MissingCSRF");
    expect(
      clientFault(
        typed("JWTSessionError", { err: Object.assign(new Error("Invalid Compact JWE"), { code: "ERR_JWE_INVALID" }) }),
      ),
    ).toBe("JWTSessionError");
    expect(clientFault(typed("JWTSessionError", { err: new Error("connection refused") }))).toBeNull();
    expect(clientFault(typed("CallbackRouteError"))).toBeNull();
    expect(clientFault(new Error("boom"))).toBeNull();
  });
});
