// /api/mcp speaks both protocol eras from one implementation: MCP 2026-07-28 (no handshake, no session; the SDK v2
// client negotiates it with server/discover) and the 2025 revisions (initialize first: the v2 client's legacy
// fallback and the v1 client). Each era must see the same tools, schemas and texts; only the 2026 era carries the
// cache fields the protocol defines, and a protocol version the endpoint does not speak is refused plainly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { setDatabase } from "@/lib/database";
import { seedSynthetic } from "@/lib/sample-catalogue/seed";
import { DELETE, GET, OPTIONS, POST } from "@/app/api/mcp/route";
import { reloadEnv } from "@/lib/env";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { serveRoute } from "../support/route-server";

const MODERN = "2026-07-28";
type ToolCall = { content: { type: string; text?: string }[]; structuredContent?: unknown; isError?: boolean };
type Host = {
  era: string;
  listTools: () => Promise<{ tools: unknown[] }>;
  callTool: (name: string, args: Record<string, unknown>) => Promise<ToolCall>;
  close: () => Promise<void>;
};

describe.each(drivers())("/api/mcp in both MCP eras on %s", (driver) => {
  let conn: TestConnection;
  let server: Awaited<ReturnType<typeof serveRoute>>;
  let endpoint: string;
  let id = 0;

  /** A raw JSON-RPC POST, so the wire itself (cache fields, errors, headers) can be read. */
  const post = (method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    });
  const envelope = (version = MODERN) => ({
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientInfo": { name: "raw-test", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  });

  async function v2Host(mode: "auto" | "legacy"): Promise<Host> {
    const client = new ClientV2({ name: "eras-test", version: "1.0.0" }, { versionNegotiation: { mode } });
    await client.connect(new TransportV2(new URL(endpoint)));
    return {
      era: client.getNegotiatedProtocolVersion() ?? "",
      listTools: () => client.listTools(undefined, { cacheMode: "bypass" }),
      callTool: (name, args) => client.callTool({ name, arguments: args }) as Promise<ToolCall>,
      close: () => client.close(),
    };
  }
  async function v1Host(): Promise<Host> {
    const client = new ClientV1({ name: "eras-test-v1", version: "1.0.0" });
    await client.connect(new TransportV1(new URL(endpoint)));
    return {
      era: client.getServerVersion() ? "2025" : "",
      listTools: () => client.listTools(),
      callTool: (name, args) => client.callTool({ name, arguments: args }) as Promise<ToolCall>,
      close: () => client.close(),
    };
  }

  beforeAll(async () => {
    process.env.RATE_LIMIT_DISABLED = "1";
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    await seedSynthetic(conn.db, 60);
    server = await serveRoute({ POST, GET, DELETE, OPTIONS });
    endpoint = `${server.url}/api/mcp`;
  });
  afterAll(async () => {
    await server?.close();
    await conn?.close();
  });

  it("negotiates 2026-07-28 with the v2 client, and 2025 with the v2 client's legacy mode and the v1 client", async () => {
    const modern = await v2Host("auto");
    const legacy = await v2Host("legacy");
    const v1 = await v1Host();
    try {
      expect(modern.era).toBe(MODERN);
      expect(legacy.era).toMatch(/^2025-/);
      expect(v1.era).toBe("2025");
    } finally {
      await Promise.all([modern.close(), legacy.close(), v1.close()]);
    }
  });

  it("lists the same tools with the same schemas, and answers the same texts, in every era", async () => {
    const hosts = [await v2Host("auto"), await v2Host("legacy"), await v1Host()];
    try {
      const lists = await Promise.all(hosts.map((h) => h.listTools()));
      expect(lists[0]!.tools.map((t) => (t as { name: string }).name).sort()).toEqual([
        "get_server",
        "list_categories",
        "search_servers",
      ]);
      expect(lists[1]!.tools).toEqual(lists[0]!.tools);
      expect(lists[2]!.tools).toEqual(lists[0]!.tools);

      for (const [name, args] of [
        ["search_servers", { query: "weather", limit: 5 }],
        ["list_categories", {}],
        ["get_server", { id: "no-such-server" }],
        ["search_servers", { limit: 99 }],
      ] as const) {
        // A 2026 answer names the server in _meta (the envelope every 2026 response carries); the rest is the answer.
        const answers = (await Promise.all(hosts.map((h) => h.callTool(name, args)))).map(
          ({ _meta, ...rest }: ToolCall & { _meta?: unknown }) => rest,
        );
        expect(answers[1]).toEqual(answers[0]);
        expect(answers[2]).toEqual(answers[0]);
      }
    } finally {
      await Promise.all(hosts.map((h) => h.close()));
    }
  });

  it("answers a 2026-07-28 tools/call and server/discover with no handshake and no session", async () => {
    const discover = await post(
      "server/discover",
      { _meta: envelope() },
      { "mcp-protocol-version": MODERN, "mcp-method": "server/discover" },
    );
    expect(discover.status).toBe(200);
    expect(discover.headers.get("mcp-session-id")).toBeNull();
    expect(discover.headers.get("access-control-allow-origin")).toBe("*");
    const { result } = (await discover.json()) as { result: Record<string, unknown> };
    expect(result).toMatchObject({
      supportedVersions: [MODERN],
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "agora-registry" } },
      capabilities: { tools: {} },
      ttlMs: 3_600_000,
      cacheScope: "public",
    });

    const call = await post(
      "tools/call",
      { name: "list_categories", arguments: {}, _meta: envelope() },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "list_categories" },
    );
    expect(call.status).toBe(200);
    const answer = (await call.json()) as {
      result: { structuredContent: { categories: unknown[] }; isError?: boolean };
    };
    expect(answer.result.isError ?? false).toBe(false);
    expect(answer.result.structuredContent.categories.length).toBeGreaterThan(0);
  });

  it("marks tools/list cacheable (an hour, public) in 2026-07-28 only; a 2025 answer is unchanged", async () => {
    const modern = (await (
      await post("tools/list", { _meta: envelope() }, { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" })
    ).json()) as { result: Record<string, unknown> };
    expect(modern.result).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
    const legacy = (await (await post("tools/list", {})).json()) as { result: Record<string, unknown> };
    expect(legacy.result).not.toHaveProperty("ttlMs");
    expect(legacy.result).not.toHaveProperty("cacheScope");
    expect(legacy.result.tools).toEqual(modern.result.tools);
  });

  it("refuses an unknown or malformed protocol version with a JSON-RPC error, and answers nothing else", async () => {
    // A claimed revision it does not serve (the envelope names it).
    const unknown = await post(
      "tools/list",
      { _meta: envelope("2031-01-01") },
      { "mcp-protocol-version": "2031-01-01" },
    );
    const unknownBody = (await unknown.json()) as {
      error?: { code: number; message: string; data?: { supported?: string[] } };
      result?: unknown;
    };
    expect(unknownBody.result).toBeUndefined();
    expect(unknownBody.error?.message).toMatch(/protocol version/i);
    expect(JSON.stringify(unknownBody.error?.data)).toContain(MODERN);

    // A header that is no revision at all, on a 2025-style message and on a 2026-style one.
    for (const params of [{}, { _meta: envelope("not-a-version") }]) {
      const bad = await post("tools/list", params, { "mcp-protocol-version": "not-a-version" });
      expect(bad.status).toBeGreaterThanOrEqual(400);
      const body = (await bad.json()) as { error?: { message: string }; result?: unknown };
      expect(body.result).toBeUndefined();
      expect(body.error?.message).toMatch(/protocol[ -]version/i);
    }

    // The header and the envelope disagree.
    const mismatch = await post("tools/list", { _meta: envelope() }, { "mcp-protocol-version": "2025-06-18" });
    const mismatchBody = (await mismatch.json()) as { error?: { message: string }; result?: unknown };
    expect(mismatchBody.result).toBeUndefined();
    expect(mismatchBody.error?.message).toBeTruthy();
  });
});
