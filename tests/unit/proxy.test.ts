import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reloadEnv } from "@/lib/env";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import { databaseDown, suspectDatabase } from "@/db/health";

function post(path: string, headers: Record<string, string> = {}, body?: BodyInit) {
  return proxy(new NextRequest(`http://localhost:3000${path}`, { method: "POST", headers, body }));
}
const refused = async (res: Promise<Response>) => (await res).status === 403;

describe("proxy: cross-site state changes", () => {
  const crossSite = { "sec-fetch-site": "cross-site", origin: "https://evil.example" };

  it("refuses cross-site posts to the JSON auth API and the create call", async () => {
    for (const path of [
      "/api/auth/login",
      "/api/auth/register",
      "/api/auth/reset-password",
      "/api/auth/callback",
      "/api/mcp-agents",
    ]) {
      expect(await refused(post(path, crossSite)), path).toBe(true);
    }
  });

  it("lets programs with a bearer token and same-origin browsers through", async () => {
    expect(await refused(post("/api/mcp-agents", { ...crossSite, authorization: "Bearer agora_x" }))).toBe(false);
    expect(
      await refused(post("/api/auth/login", { "sec-fetch-site": "same-origin", origin: "http://localhost:3000" })),
    ).toBe(false);
    expect(await refused(post("/api/auth/login"))).toBe(false);
  });

  it("refuses cross-site server actions (POSTs to pages), bearer token or not", async () => {
    for (const path of ["/submit", "/account", "/admin/review", "/"]) {
      expect(await refused(post(path, { ...crossSite, "next-action": "abc123" })), path).toBe(true);
      expect(await refused(post(path, { origin: "https://evil.example" })), path).toBe(true);
      expect(await refused(post(path, { ...crossSite, authorization: "Bearer agora_x" })), path).toBe(true);
      expect(
        await refused(
          post(path, { "sec-fetch-site": "same-origin", origin: "http://localhost:3000", "next-action": "abc123" }),
        ),
        path,
      ).toBe(false);
    }
  });

  it("leaves Auth.js's own endpoints and the MCP endpoint to their own checks", async () => {
    expect(await refused(post("/api/nextauth/callback/github", crossSite))).toBe(false);
    expect(await refused(post("/api/mcp", crossSite))).toBe(false);
    expect(await refused(post("/api/mcpx", crossSite))).toBe(true);
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

  it("refuses an attacker's origin even when X-Forwarded-Host names it", async () => {
    const forged = { origin: "https://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    expect(await refused(post("/api/auth/login", forged))).toBe(true);
    expect(await refused(post("/submit", { ...forged, "next-action": "abc123" }))).toBe(true);
    // Nor does a Host header that matches the attacker's origin make it this site.
    expect(
      await refused(
        proxy(
          new NextRequest("https://evil.example/api/auth/login", {
            method: "POST",
            headers: { origin: "https://evil.example" },
          }),
        ),
      ),
    ).toBe(true);
  });

  it("accepts the configured origin", async () => {
    expect(
      await refused(post("/api/auth/login", { origin: "https://agora.example", "sec-fetch-site": "same-origin" })),
    ).toBe(false);
  });
});

describe("proxy: malformed addresses", () => {
  it("answers a malformed percent-escape in the path with 400 instead of letting the route crash", async () => {
    const res = await proxy(new NextRequest("http://localhost:3000/marketplace/%E0%A4%A"));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "invalid_address",
      message: "The address contains malformed percent-encoding.",
    });
    expect((await proxy(new NextRequest("http://localhost:3000/marketplace/caf%C3%A9"))).status).not.toBe(400);
  });
});

describe("proxy: malformed server action bodies are refused before Next decodes them", () => {
  const action = {
    "sec-fetch-site": "same-origin",
    origin: "http://localhost:3000",
    "next-action": "405ea59a6c566ef62fecb6d500570695eb1c623556",
  };
  const text = { ...action, "content-type": "text/plain;charset=UTF-8" };
  const answer = async (headers: Record<string, string>, body?: BodyInit) => {
    const res = await post("/forgot-password", headers, body);
    if (res.status === 200) return { status: 200, code: null, message: null };
    const { code, message } = (await res.json()) as { code: string; message: string };
    return { status: res.status, code, message };
  };
  const malformed = { status: 400, code: "invalid_form", message: "The request body is not a valid form submission." };

  it("lets a well-formed call through, as text or as a multipart form", async () => {
    expect((await answer(text, '[{"email":"a@b.co"}]')).status).toBe(200);
    expect(
      (await answer(text, '["$undefined",{"when":"$D2026-01-01T00:00:00.000Z","n":"$n12","s":"$$dollar"}]')).status,
    ).toBe(200);
    const form = new FormData();
    form.set("1_email", "a@b.co");
    form.set("1_note", "[[[ not JSON and 1e999 typed by a person");
    form.set("0", '["$K1"]');
    expect((await answer(action, form)).status).toBe(200);
  });

  it("answers each of the audit's bodies with a 4xx and a plain message", async () => {
    expect(await answer(text, '[{"email":')).toEqual(malformed);
    expect(await answer(text, "")).toEqual(malformed);
    expect(await answer(action)).toEqual({
      status: 415,
      code: "unsupported_media_type",
      message: "A form submission must be sent as text/plain or multipart/form-data.",
    });
    expect(await answer(text, "[1e999]")).toEqual(malformed);
    expect(await answer(text, "[".repeat(50_000) + "]".repeat(50_000))).toEqual(malformed);
    expect(await answer(text, '{"email":"a@b.co"}')).toEqual(malformed);
    expect(await answer(text, '["$Q1"]')).toEqual(malformed);
    expect(await answer(text, '["$n12abc"]')).toEqual(malformed);
    expect(await answer(text, `["${"a".repeat(2_000_000)}"]`)).toEqual({
      status: 413,
      code: "body_too_large",
      message: "The request body is larger than 1 MB.",
    });
    expect(await answer({ ...text, "content-length": "2000000" }, "[]")).toEqual({
      status: 413,
      code: "body_too_large",
      message: "The request body is larger than 1 MB.",
    });
    expect(await answer({ ...action, "content-type": "application/json" }, "[]")).toEqual({
      status: 415,
      code: "unsupported_media_type",
      message: "A form submission must be sent as text/plain or multipart/form-data.",
    });
    expect(await answer({ ...action, "content-type": "multipart/form-data; boundary=xyz" }, "garbage")).toEqual(
      malformed,
    );
    const deep = new FormData();
    deep.set("0", "[".repeat(100) + "]".repeat(100));
    expect(await answer(action, deep)).toEqual(malformed);
    // References React's decoder would chase and throw on: a map, a blob, a server reference, a missing part.
    for (const reference of ["$Q1", "$B1", "$F1", "$h1", "$S1", "$W1", "$1", "$@2", "$n1x"]) {
      const form = new FormData();
      form.set("0", JSON.stringify([reference]));
      form.set("1_email", "a@b.co");
      expect(await answer(action, form), reference).toEqual(malformed);
    }
  });

  it("refuses an action id that is not one (the wrong length, two ids in one header)", async () => {
    const noAction = {
      status: 400,
      code: "unknown_action",
      message: "The form submission names no action of this site.",
    };
    expect(await answer({ ...text, "next-action": "0000" }, "[]")).toEqual(noAction);
    expect(await answer({ ...text, "next-action": `${action["next-action"]}, 0000` }, "[]")).toEqual(noAction);
  });

  it("screens a form posted without JavaScript (no Next-Action header) the same way", async () => {
    const { "next-action": _omitted, ...browser } = action;
    const noAction = {
      status: 400,
      code: "unknown_action",
      message: "The form submission names no action of this site.",
    };
    expect(await answer({ ...browser, "content-type": "multipart/form-data; boundary=xyz" }, "garbage")).toEqual(
      malformed,
    );
    const forged = new FormData();
    forged.set("$ACTION_REF_1", "");
    forged.set("$ACTION_1:0", JSON.stringify({ id: action["next-action"], bound: "$@1" }));
    expect(await answer(browser, forged)).toEqual(noAction);
    const plain = new FormData();
    plain.set(`$ACTION_ID_${action["next-action"]}`, "");
    plain.set("email", "a@b.co");
    expect((await answer(browser, plain)).status).toBe(200);
  });

  it("still refuses a cross-site action with 403 before reading its body", async () => {
    expect(await answer({ ...text, origin: "https://evil.example", "sec-fetch-site": "cross-site" }, "[")).toEqual({
      status: 403,
      code: "cross_site_request",
      message: "Cross-site requests are not allowed.",
    });
  });
});

describe("proxy: every page's POSTs are judged alike, the catalogue's included", () => {
  const own = { "sec-fetch-site": "same-origin", origin: "http://localhost:3000" };
  const paths = [
    "/marketplace",
    "/marketplace?page=2",
    "/marketplace?q=weather",
    "/marketplace/some-listing",
    "/sitemap.xml",
    "/marketplace/x.png",
  ];

  it("refuses a cross-site action to any of them with 403", async () => {
    for (const path of paths) {
      const res = await post(path, {
        origin: "https://evil.example",
        "sec-fetch-site": "cross-site",
        "next-action": "405ea59a6c566ef62fecb6d500570695eb1c623556",
      });
      expect(res.status, path).toBe(403);
    }
  });

  it("answers a broken multipart body with 400 on each of them", async () => {
    for (const path of paths) {
      const res = await post(path, { ...own, "content-type": "multipart/form-data; boundary=xyz" }, "garbage");
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toEqual({
        code: "invalid_form",
        message: "The request body is not a valid form submission.",
      });
    }
  });

  it("hands Next the judged origin's host, not a forged X-Forwarded-Host", async () => {
    const form = new FormData();
    form.set(`$ACTION_ID_405ea59a6c566ef62fecb6d500570695eb1c623556`, "");
    for (const path of ["/marketplace", "/forgot-password"]) {
      const res = await post(path, { ...own, "x-forwarded-host": "evil.example" }, form);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-middleware-request-x-forwarded-host"), path).toBe("localhost:3000");
    }
  });

  it("runs for a request with a body or an action id whatever its path", async () => {
    const { config } = await import("@/proxy");
    expect(config.matcher).toEqual(
      expect.arrayContaining([
        { source: "/:path*", has: [{ type: "header", key: "content-type" }] },
        { source: "/:path*", has: [{ type: "header", key: "next-action" }] },
      ]),
    );
  });
});

describe("proxy: health and readiness while the database is down", () => {
  it("lets /api/health and /api/ready answer for themselves while other API calls get the 503 gate", async () => {
    // No ping registered in this process: a suspected outage closes the gate at once (db/health.ts).
    suspectDatabase();
    expect(databaseDown()).toBe(true);
    const gated = await proxy(new NextRequest("http://localhost:3000/api/mcp-agents"));
    expect(gated.status).toBe(503);
    expect(gated.headers.get("retry-after")).toBe("5");
    expect(await gated.json()).toEqual({
      code: "unavailable",
      message: "Agora is briefly unavailable while its database restarts. Please try again in a few seconds.",
    });
    // The same answer as the preloads give (server/plain-answer.mjs): JSON-RPC on the MCP endpoint, a page for a browser.
    const mcp = await proxy(
      new NextRequest("http://localhost:3000/api/mcp", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(mcp.status).toBe(503);
    expect(await mcp.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, data: { code: "unavailable" } },
    });
    const page = await proxy(new NextRequest("http://localhost:3000/account", { headers: { accept: "text/html" } }));
    expect(page.status).toBe(503);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(await page.text()).toContain("<h1>Briefly unavailable</h1>");
    for (const path of ["/api/health", "/api/ready"]) {
      const res = await proxy(new NextRequest(`http://localhost:3000${path}`));
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-middleware-next"), path).toBe("1");
    }
  });
});
