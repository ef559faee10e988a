// Bounded work per request and errors that neither leak nor crash, on real databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { insertListing } from "@/lib/listings/write";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { GET as agentsGet } from "@/app/api/mcp-agents/route";
import { GET as agentGet } from "@/app/api/mcp-agents/[id]/route";
import { POST as nextAuthPost } from "@/app/api/nextauth/[...nextauth]/route";
import { MAX_MCP_BATCH } from "@/lib/registry/mcp-endpoint";
import { reloadEnv } from "@/lib/env";
import { startOAuthSignIn } from "@/lib/actions/start-oauth-sign-in";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { NextRequest } from "next/server";

function setRateLimits(on: boolean) {
  process.env.RATE_LIMIT_DISABLED = on ? "" : "1";
  reloadEnv();
}

let address = 0;
/** A JSON-RPC POST to /api/mcp from one client address (a fresh one per test unless given). */
function mcp(body: unknown, from = `198.51.100.${++address}`) {
  return mcpPost(
    new Request("http://localhost/api/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-forwarded-for": from,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}
const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

describe.each(drivers())("bounded work and safe errors on %s", (driver) => {
  let conn: TestConnection;

  beforeAll(async () => {
    setRateLimits(false);
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    await insertListing(conn.db, {
      name: "Weather Oracle",
      description: "Forecasts for agents.",
      categories: ["Data"],
      serverUrl: "https://weather.example.com/mcp",
      status: "approved",
    });
  });
  afterAll(async () => {
    await conn?.close();
    delete process.env.RATE_LIMIT_DISABLED;
    reloadEnv();
  });

  describe("MCP batches", () => {
    it("counts every call of a batch against the per-address limit (120 a minute)", async () => {
      setRateLimits(true);
      try {
        const from = "198.51.100.250";
        const batch = Array.from({ length: 20 }, (_, i) => call(i + 1, "list_categories"));
        for (let i = 0; i < 6; i++) expect((await mcp(batch, from)).status).toBe(200); // 6 × 20 = the whole minute's 120
        const refused = await mcp(call(1, "list_categories"), from);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(await refused.json()).toMatchObject({
          jsonrpc: "2.0",
          error: { code: -32000, message: expect.stringMatching(/Too many requests/) },
        });
      } finally {
        setRateLimits(false);
      }
    });

    it("answers an empty batch and an oversized one with a 400 JSON-RPC error", async () => {
      const empty = await mcp([]);
      expect(empty.status).toBe(400);
      expect(await empty.json()).toMatchObject({
        jsonrpc: "2.0",
        error: { code: -32600, message: expect.stringMatching(/empty batch/), data: { code: "invalid_request" } },
        id: null,
      });
      const big = await mcp(Array.from({ length: MAX_MCP_BATCH + 1 }, (_, i) => call(i + 1, "list_categories")));
      expect(big.status).toBe(400);
      expect((await big.json()).error.message).toMatch(`at most ${MAX_MCP_BATCH}`);
    });
  });

  describe("NUL bytes and broken text", () => {
    it("refuses them in MCP tool arguments with a message, never SQL", async () => {
      for (const [name, args] of [
        ["search_servers", { query: "wea\u0000ther" }],
        ["search_servers", { category: "Da\u0000ta" }],
        ["get_server", { id: "weather\u0000oracle" }],
        ["search_servers", { query: "\ud800" }],
      ] as const) {
        const res = await mcp(call(1, name, args));
        const text = JSON.stringify(await res.json());
        expect(res.status, name).toBeLessThan(500);
        expect(text, name).toMatch(/must not contain NUL bytes or broken characters/);
        expect(text.toLowerCase(), name).not.toMatch(/select|from "listings"|invalid byte sequence/);
      }
    });

    it("answers 400 from the JSON API and 404 for a slug, never 500", async () => {
      for (const query of ["q=a%00b", "category=Da%00ta"]) {
        const res = await agentsGet(new Request(`http://localhost/api/mcp-agents?${query}`));
        expect(res.status, query).toBe(400);
        expect((await res.json()).message).toMatch(/must not contain NUL bytes/);
      }
      const bySlug = await agentGet(new Request("http://localhost/api/mcp-agents/x"), {
        params: Promise.resolve({ id: "weather\u0000oracle" }),
      });
      expect(bySlug.status).toBe(404);
    });
  });

  it("caps Auth.js POST bodies: 413 past 8 KB, whatever Content-Length says", async () => {
    const big = "x".repeat(64 * 1024);
    for (const headers of [{ "content-length": String(big.length) }, {}]) {
      const res = await nextAuthPost(
        new NextRequest("http://localhost/api/nextauth/callback/password", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          body: new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(`csrfToken=${big}`));
              controller.close();
            },
          }),
          duplex: "half",
        } as ConstructorParameters<typeof NextRequest>[1]),
      );
      expect(res.status).toBe(413);
      expect((await res.json()).message).toMatch(/at most 8 KB/);
    }
  });

  it("answers an unknown OAuth provider with 400 and an unconfigured one with 404, not 500", async () => {
    expect(await startOAuthSignIn("evil" as "github")).toMatchObject({
      ok: false,
      status: 400,
      code: "invalid_request",
      message: "Unknown sign-in provider.",
    });
    expect(await startOAuthSignIn("google")).toMatchObject({
      ok: false,
      status: 404,
      code: "not_found",
      message: "Sign-in with Google is not available on this site.",
    });
  });

  // Last: closes the database underneath the app.
  it("answers 503 with Retry-After while the database is unreachable, and MCP tools say so without SQL", async () => {
    const own = await openTestDatabase(driver);
    setDatabase(own);
    await own.close();
    const api = await agentsGet(new Request("http://localhost/api/mcp-agents?q=weather"));
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBe("5");
    expect(await api.json()).toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(/briefly unavailable/),
    });
    const tool = await mcp(call(1, "search_servers", { query: "weather" }));
    const answer = JSON.stringify(await tool.json());
    expect([200, 503]).toContain(tool.status);
    expect(answer).toMatch(/briefly unavailable/);
    expect(answer.toLowerCase()).not.toMatch(/select|listings/);
    setDatabase(conn);
  });
});
