import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { setDatabase } from "@/lib/database";
import { apiTokens, listings } from "@/db/schema";
import { issueApiToken, revokeApiToken } from "@/lib/auth/api-tokens";
import { reloadEnv } from "@/lib/env";
import { insertListing } from "@/lib/listings/write";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as createAgent } from "@/app/api/mcp-agents/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { call, inProduction, jsonRequest, setAuthEnv, uniqueEmail } from "../support/route-client";

let serial = 0;
const payload = (patch: Record<string, unknown> = {}) => ({
  name: "AI-Powered Web Scraper",
  description: "Scrapes pages and returns clean markdown for agents.",
  mcpServerUrl: `https://scraper-${Date.now().toString(36)}-${++serial}.example.com/mcp`,
  categories: "AI, Web3, Finance",
  websiteUrl: null,
  ...patch,
});

describe.each(drivers())("POST /api/mcp-agents on %s", (driver) => {
  let conn: TestConnection;
  let token: string;
  let userId: string;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    call(createAgent, jsonRequest("/api/mcp-agents", body, { authorization: `Bearer ${token}`, ...headers }));
  const listingCount = async () => (await conn.db.select({ n: sql<number>`count(*)::int` }).from(listings))[0]!.n;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    setAuthEnv({ RATE_LIMIT_DISABLED: "1" });
    reloadEnv();
    const res = await call(
      register,
      jsonRequest("/api/auth/register", {
        email: uniqueEmail("provider"),
        password: "provider password",
        name: "Provider",
      }),
    );
    token = res.body.token as string;
    userId = (res.body.user as { id: string }).id;
  });
  afterAll(async () => conn?.close());
  beforeEach(() => {
    setAuthEnv({ RATE_LIMIT_DISABLED: "1" });
    reloadEnv();
  });

  it("creates the listing as pending and answers 201 with it", async () => {
    const body = payload({ websiteUrl: "https://scraper.example.com" });
    const res = await post(body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "AI-Powered Web Scraper",
      description: body.description,
      categories: "AI, Web3, Finance",
      mcpServerUrl: body.mcpServerUrl,
      website_url: "https://scraper.example.com",
      status: "pending",
      verified: false,
    });
    const [row] = await conn.db
      .select()
      .from(listings)
      .where(eq(listings.id, res.body.id as string));
    expect(row).toMatchObject({ status: "pending", submitterId: userId, categories: ["AI", "Web3", "Finance"] });
  });

  it("accepts categories as a list too, and a missing website", async () => {
    const { websiteUrl: _omit, ...rest } = payload({ categories: ["Data", "data", " Search "] });
    const res = await post(rest);
    expect(res.status).toBe(201);
    expect(res.body.categories).toBe("Data, Search");
    expect(res.body.website_url).toBeNull();
  });

  it("stores unicode and script payloads as plain text", async () => {
    const name = "Résumé 解析 🚀 <img src=x onerror=alert(1)>";
    const description = "<script>alert('hi')</script> — Ünïcödé description\nwith a second line.";
    const res = await post(payload({ name, description, categories: "日本語, <b>bold</b>" }));
    expect(res.status).toBe(201);
    const [row] = await conn.db
      .select()
      .from(listings)
      .where(eq(listings.id, res.body.id as string));
    expect(row!.name).toBe(name);
    expect(row!.description).toBe(description);
    expect(row!.categories).toEqual(["日本語", "<b>bold</b>"]);
  });

  it("answers 409 when the server URL is already listed, in any spelling", async () => {
    const body = payload();
    expect((await post(body)).status).toBe(201);
    const before = await listingCount();
    const url = new URL(body.mcpServerUrl);
    const res = await post(payload({ mcpServerUrl: `https://${url.host.toUpperCase()}${url.pathname}/` }));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("duplicate_server");
    expect(await listingCount()).toBe(before);
  });

  it("answers 409 for a server imported from a registry under its trailing-slash spelling, submitted without it or with it", async () => {
    // Ingestion keeps the URL its registry lists, as the URL parser writes it (lib/ingest/check-candidates.ts).
    const host = `imported-${Date.now().toString(36)}.example.com`;
    await insertListing(conn.db, {
      name: "Imported Root",
      description: "Found in the MCP Registry.",
      categories: [],
      serverUrl: `https://${host}/`,
      status: "approved",
      source: "mcp-registry",
    });
    await insertListing(conn.db, {
      name: "Imported Path",
      description: "Found in the MCP Registry.",
      categories: [],
      serverUrl: `https://${host}/mcp/`,
      status: "approved",
      source: "mcp-registry",
    });
    const before = await listingCount();
    for (const mcpServerUrl of [
      `https://${host}`,
      `https://${host}/`,
      `https://${host}/mcp`,
      `https://${host.toUpperCase()}/mcp/`,
    ]) {
      const res = await post(payload({ mcpServerUrl }));
      expect(res.status, mcpServerUrl).toBe(409);
      expect(res.body.code).toBe("duplicate_server");
    }
    expect(await listingCount()).toBe(before);
  });

  describe("refuses a bad bearer token with 401", () => {
    it.each([
      ["no Authorization header", { authorization: "" }],
      ["a Basic header", { authorization: "Basic dXNlcjpwYXNz" }],
      ["an unknown token", { authorization: `Bearer agora_${"A".repeat(43)}` }],
      ["a token without the prefix", { authorization: "Bearer abc" }],
    ])("%s", async (_label, headers) => {
      const before = await listingCount();
      const res = await post(payload(), headers);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(headers.authorization.startsWith("Bearer ") ? "invalid_token" : "sign_in_required");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await listingCount()).toBe(before);
    });
  });

  it("stops accepting a token on the next request after it is revoked", async () => {
    const issued = await issueApiToken(conn.db, { userId, kind: "personal", name: "to revoke", days: 30 });
    const headers = { authorization: `Bearer ${issued.token}` };
    expect((await post(payload(), headers)).status).toBe(201);
    await revokeApiToken(conn.db, userId, issued.record.id);
    const res = await post(payload(), headers);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("invalid_token");
  });

  it("refuses an expired token", async () => {
    const issued = await issueApiToken(conn.db, { userId, kind: "personal", name: "expiring", days: 30 });
    await conn.db
      .update(apiTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiTokens.id, issued.record.id));
    expect((await post(payload(), { authorization: `Bearer ${issued.token}` })).status).toBe(401);
  });

  it("records when a token was last used", async () => {
    const issued = await issueApiToken(conn.db, { userId, kind: "personal", name: "usage", days: 30 });
    expect(issued.record.lastUsedAt).toBeNull();
    await post(payload(), { authorization: `Bearer ${issued.token}` });
    const [row] = await conn.db.select().from(apiTokens).where(eq(apiTokens.id, issued.record.id));
    expect(row!.lastUsedAt).toBeInstanceOf(Date);
  });

  it("checks the token before reading the body", async () => {
    const res = await post("{not json", { authorization: "" });
    expect(res.status).toBe(401);
  });

  it.each([
    ["a blank name", { name: " " }, "name", "Please enter a name."],
    ["a 101-character name", { name: "n".repeat(101) }, "name", "Name must be under 100 characters."],
    [
      "a short description",
      { description: "too short" },
      "description",
      "Description is too short — minimum 10 characters.",
    ],
    [
      "a long description",
      { description: "d".repeat(1001) },
      "description",
      "Description is too long — maximum 1000 characters.",
    ],
    ["a missing server URL", { mcpServerUrl: "" }, "mcpServerUrl", "Please enter a MCP Server URL."],
    ["a non-URL", { mcpServerUrl: "not a url" }, "mcpServerUrl", "Please enter a valid URL."],
    ["a javascript: URL", { mcpServerUrl: "javascript:alert(1)" }, "mcpServerUrl", "Please enter a valid URL."],
    ["an ftp URL", { mcpServerUrl: "ftp://files.example.com/mcp" }, "mcpServerUrl", "Please enter a valid URL."],
    ["a bad website URL", { websiteUrl: "www" }, "websiteUrl", "Please enter a valid URL."],
    ["six categories", { categories: "a,b,c,d,e,f" }, "categories", "You can only have up to 5 categories"],
  ])("answers 400 {message, errors} for %s, saving nothing", async (_label, patch, field, message) => {
    const before = await listingCount();
    const res = await post(payload(patch));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors?.[field]).toContain(message);
    expect(await listingCount()).toBe(before);
  });

  it.each([
    ["malformed JSON", "{name:", {}, 400, "invalid_json"],
    ["a form post", "name=x", { "content-type": "application/x-www-form-urlencoded" }, 415, "unsupported_media_type"],
    ["a body over 16 KB", JSON.stringify(payload({ description: "d".repeat(17_000) })), {}, 413, "body_too_large"],
  ])("refuses %s", async (_label, body, headers, status, code) => {
    const before = await listingCount();
    const res = await post(body, headers as Record<string, string>);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(await listingCount()).toBe(before);
  });

  describe("in production", () => {
    it.each([
      ["http", "http://plain.example.com/mcp", "The MCP server URL must use https."],
      ["a loopback host", "https://127.0.0.1/mcp", "The MCP server URL must be on a public host."],
      ["localhost", "https://localhost:8080/mcp", "The MCP server URL must be on a public host."],
      ["a private network host", "https://10.1.2.3/mcp", "The MCP server URL must be on a public host."],
      ["an internal name", "https://mcp.internal/mcp", "The MCP server URL must be on a public host."],
    ])("refuses %s", async (_label, url, message) => {
      const res = await inProduction(() => post(payload({ mcpServerUrl: url })));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    });

    it("accepts private http hosts when the operator allows them", async () => {
      setAuthEnv({ RATE_LIMIT_DISABLED: "1", ALLOW_PRIVATE_SERVER_URLS: "1" });
      const res = await inProduction(() => post(payload({ mcpServerUrl: `http://localhost:8080/mcp-${++serial}` })));
      expect(res.status).toBe(201);
    });
  });

  it("limits submissions per user with 429 and Retry-After", async () => {
    setAuthEnv();
    reloadEnv();
    const issued = await issueApiToken(conn.db, { userId, kind: "personal", name: "busy", days: 30 });
    const headers = { authorization: `Bearer ${issued.token}` };
    for (let i = 0; i < 10; i++) expect((await post(payload(), headers)).status).toBe(201);
    const before = await listingCount();
    const res = await post(payload(), headers);
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/^You have submitted too many servers today\. Try again in \d+ minutes\.$/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await listingCount()).toBe(before);
  });
});
