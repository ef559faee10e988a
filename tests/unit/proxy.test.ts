import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reloadEnv } from "@/lib/env";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import { databaseDown, suspectDatabase } from "@/db/health";

function post(path: string, headers: Record<string, string> = {}) {
  return proxy(new NextRequest(`http://localhost:3000${path}`, { method: "POST", headers }));
}
const refused = (res: Response) => res.status === 403;

describe("proxy: cross-site state changes", () => {
  const crossSite = { "sec-fetch-site": "cross-site", origin: "https://evil.example" };

  it("refuses cross-site posts to the JSON auth API and the create call", () => {
    for (const path of ["/api/auth/login", "/api/auth/register", "/api/auth/reset-password", "/api/auth/callback", "/api/mcp-agents"]) {
      expect(refused(post(path, crossSite)), path).toBe(true);
    }
  });

  it("lets programs with a bearer token and same-origin browsers through", () => {
    expect(refused(post("/api/mcp-agents", { ...crossSite, authorization: "Bearer agora_x" }))).toBe(false);
    expect(refused(post("/api/auth/login", { "sec-fetch-site": "same-origin", origin: "http://localhost:3000" }))).toBe(false);
    expect(refused(post("/api/auth/login"))).toBe(false);
  });

  it("refuses cross-site server actions (POSTs to pages), bearer token or not", () => {
    for (const path of ["/submit", "/account", "/admin/review", "/"]) {
      expect(refused(post(path, { ...crossSite, "next-action": "abc123" })), path).toBe(true);
      expect(refused(post(path, { origin: "https://evil.example" })), path).toBe(true);
      expect(refused(post(path, { ...crossSite, authorization: "Bearer agora_x" })), path).toBe(true);
      expect(refused(post(path, { "sec-fetch-site": "same-origin", origin: "http://localhost:3000", "next-action": "abc123" })), path).toBe(false);
    }
  });

  it("leaves Auth.js's own endpoints and the MCP endpoint to their own checks", () => {
    expect(refused(post("/api/nextauth/callback/github", crossSite))).toBe(false);
    expect(refused(post("/api/mcp", crossSite))).toBe(false);
    expect(refused(post("/api/mcpx", crossSite))).toBe(true);
  });
});

describe("proxy: the site's origin comes from configuration in production", () => {
  const env = process.env as Record<string, string | undefined>;
  const saved = { NODE_ENV: env.NODE_ENV, SITE_URL: env.SITE_URL, AUTH_SECRET: env.AUTH_SECRET };
  beforeEach(() => {
    env.NODE_ENV = "production";
    env.SITE_URL = "https://agora.example";
    env.AUTH_SECRET = "s".repeat(32);
    reloadEnv();
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    reloadEnv();
  });

  it("refuses an attacker's origin even when X-Forwarded-Host names it", () => {
    const forged = { origin: "https://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    expect(refused(post("/api/auth/login", forged))).toBe(true);
    expect(refused(post("/submit", { ...forged, "next-action": "abc123" }))).toBe(true);
    // Nor does a Host header that matches the attacker's origin make it this site.
    expect(refused(proxy(new NextRequest("https://evil.example/api/auth/login", { method: "POST", headers: { origin: "https://evil.example" } })))).toBe(true);
  });

  it("accepts the configured origin", () => {
    expect(refused(post("/api/auth/login", { origin: "https://agora.example", "sec-fetch-site": "same-origin" }))).toBe(false);
  });
});

describe("proxy: malformed addresses", () => {
  it("answers a malformed percent-escape in the path with 400 instead of letting the route crash", async () => {
    const res = proxy(new NextRequest("http://localhost:3000/marketplace/%E0%A4%A"));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "The address contains malformed percent-encoding." });
    expect(proxy(new NextRequest("http://localhost:3000/marketplace/caf%C3%A9")).status).not.toBe(400);
  });
});

describe("proxy: health and readiness while the database is down", () => {
  it("lets /api/health and /api/ready answer for themselves while other API calls get the 503 gate", () => {
    // No ping registered in this process: a suspected outage closes the gate at once (db/health.ts).
    suspectDatabase();
    expect(databaseDown()).toBe(true);
    expect(proxy(new NextRequest("http://localhost:3000/api/mcp-agents")).status).toBe(503);
    for (const path of ["/api/health", "/api/ready"]) {
      const res = proxy(new NextRequest(`http://localhost:3000${path}`));
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-middleware-next"), path).toBe("1");
    }
  });
});
