import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { setDatabase } from "@/lib/database";
import { countApproved, listCategories } from "@/db/queries/listings";
import { seedSynthetic } from "@/lib/sample-catalogue/seed";
import { PLACEHOLDER_WALLET, type ReferenceServer } from "@/examples/monetized-server";
import { DELETE, GET, OPTIONS, POST } from "@/app/api/mcp/route";
import { reloadEnv } from "@/lib/env";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { seedProbedSample } from "../support/probed-sample";
import { serveRoute } from "../support/route-server";

type Summary = {
  id: string;
  slug: string;
  name: string;
  categories: string[];
  price: number | null;
  free: boolean;
  verified: boolean;
  serverUrl: string;
  detailUrl: string;
  createdAt: string;
};
type SearchAnswer = { servers: Summary[]; total: number; totalCapped: boolean; nextCursor: string | null };

const SITE = "https://agora.test";

function setRateLimits(on: boolean) {
  process.env.RATE_LIMIT_DISABLED = on ? "" : "1";
  reloadEnv();
}

describe.each(drivers())("/api/mcp on %s, driven by the MCP SDK client over HTTP", (driver) => {
  let conn: TestConnection;
  let reference: ReferenceServer;
  let server: Awaited<ReturnType<typeof serveRoute>>;
  let endpoint: string;
  let client: Client;
  let approved: number;

  const connect = async () => {
    const c = new Client({ name: "registry-test", version: "1.0.0" });
    await c.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
    return c;
  };
  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const search = async (args: Record<string, unknown>) => {
    const result = await call("search_servers", args);
    expect(result.isError ?? false).toBe(false);
    return result.structuredContent as SearchAnswer;
  };
  const text = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body,
    });
  const listToolsMessage = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

  beforeAll(async () => {
    process.env.SITE_URL = SITE;
    setRateLimits(false);
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    reference = await seedProbedSample(conn.db);
    await seedSynthetic(conn.db, 1000);
    approved = await countApproved(conn.db);
    server = await serveRoute({ POST, GET, DELETE, OPTIONS });
    endpoint = `${server.url}/api/mcp`;
    client = await connect();
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await reference?.close();
    await conn?.close();
    delete process.env.SITE_URL;
  });

  it("initializes without a session and describes itself", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: "agora-registry", version: "1.0.0" });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    // The three tools never change: no tools/list_changed notification is promised.
    expect(client.getServerCapabilities()?.tools?.listChanged).toBeFalsy();
    expect(client.getInstructions()).toMatch(/search_servers/);
    expect((client.transport as StreamableHTTPClientTransport).sessionId).toBeUndefined();
  });

  it("lists search_servers, get_server and list_categories with input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["get_server", "list_categories", "search_servers"]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const searchTool = byName.search_servers!;
    expect(Object.keys(searchTool.inputSchema.properties ?? {}).sort()).toEqual([
      "category",
      "cursor",
      "limit",
      "price",
      "query",
      "sort",
      "source",
    ]);
    expect(searchTool.inputSchema.properties!.limit).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 50,
      default: 10,
    });
    expect(searchTool.inputSchema.properties!.price).toMatchObject({ enum: ["all", "free", "paid"] });
    expect(searchTool.inputSchema.properties!.sort).toMatchObject({
      enum: ["relevance", "popular", "purchased", "newest", "name"],
    });
    expect(searchTool.outputSchema?.required).toEqual(
      expect.arrayContaining(["servers", "total", "totalCapped", "nextCursor"]),
    );
    expect(byName.get_server!.inputSchema.required).toEqual(["id"]);
    expect(Object.keys(byName.get_server!.outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(["tools", "paymentMethods", "lastVerification", "clientConfig", "serverUrl", "detailUrl"]),
    );
    expect(byName.list_categories!.outputSchema?.required).toEqual(["categories"]);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
  });

  // The server does not re-validate its answers on every call (lib/registry/mcp-server.ts): this is where they are
  // held to the output schemas tools/list advertises, with the JSON Schema validator MCP clients use.
  it("answers every tool with structured content that fits the output schema it advertises", async () => {
    const { tools } = await client.listTools();
    const validator = new AjvJsonSchemaValidator();
    const fits = (name: string, result: CallToolResult) => {
      expect(result.isError ?? false).toBe(false);
      const schema = tools.find((t) => t.name === name)!.outputSchema!;
      const check = validator.getValidator(schema as Parameters<typeof validator.getValidator>[0])(
        result.structuredContent,
      );
      expect(check.valid ? "fits" : check.errorMessage).toBe("fits");
    };
    for (const args of [
      { query: "weather", limit: 50 },
      { sort: "purchased", limit: 50 },
      { category: "Finance", price: "free" },
      { query: "zzzz-nothing" },
    ]) {
      fits("search_servers", await call("search_servers", args));
    }
    fits("get_server", await call("get_server", { id: "boba-order-bot" }));
    fits("get_server", await call("get_server", { id: "ai-powered-web-scraper" }));
    fits("list_categories", await call("list_categories"));
    // A field the schema does not name is refused, so an answer that drifts from its schema fails here.
    const schema = tools.find((t) => t.name === "list_categories")!.outputSchema!;
    expect(
      validator.getValidator(schema as Parameters<typeof validator.getValidator>[0])({ categories: [], extra: 1 })
        .valid,
    ).toBe(false);
  });

  it("search_servers finds a server by text with its URLs, and says so in readable text", async () => {
    const result = await call("search_servers", { query: "bubble tea" });
    const answer = result.structuredContent as SearchAnswer;
    expect(answer.total).toBe(1);
    expect(answer.nextCursor).toBeNull();
    const [boba] = answer.servers;
    expect(boba).toMatchObject({
      name: "Boba Order Bot",
      slug: "boba-order-bot",
      detailUrl: `${SITE}/marketplace/boba-order-bot`,
      free: false,
    });
    expect(boba!.serverUrl).toBe(`${reference.url}?sample=boba-order-bot`);
    expect(boba).toMatchObject({
      verified: true,
      reachable: true,
      price: 0.01,
      uptime30d: { percent: 100, checks: 1 },
    });
    expect(text(result)).toContain("Boba Order Bot");
    expect(text(result)).toContain(`${SITE}/marketplace/boba-order-bot`);
  });

  it("search_servers applies category, price and sort as the marketplace does", async () => {
    // Each filtered page is full (or the whole match) before anything is said about every server on it.
    const finance = await search({ category: "Finance", limit: 50 });
    expect(finance.total).toBeGreaterThan(0);
    expect(finance.servers).toHaveLength(Math.min(50, finance.total));
    expect(finance.servers.every((s) => s.categories.includes("Finance"))).toBe(true);
    // Counting stops at 1,000 (the catalogue here holds more), and the answer says so.
    expect(await search({ category: "all" })).toMatchObject({ total: 1000, totalCapped: true });

    const free = await search({ price: "free", limit: 50 });
    expect(free.total).toBeGreaterThan(0);
    expect(free.servers).toHaveLength(Math.min(50, free.total));
    expect(free.servers.every((s) => s.free && !s.price)).toBe(true);
    const paid = await search({ price: "paid", limit: 50 });
    expect(paid.total).toBeGreaterThan(0);
    expect(paid.servers).toHaveLength(Math.min(50, paid.total));
    expect(paid.servers.every((s) => (s.price ?? 0) > 0)).toBe(true);
    expect(free.total + paid.total).toBe(approved);

    const newest = await search({ sort: "newest", limit: 50 });
    const times = newest.servers.map((s) => Date.parse(s.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const popular = await search({ limit: 50 });
    expect(popular.servers[0]!).toMatchObject({ name: "Boba Order Bot", verified: true });
    // Verified only where a probe earned it: every verified server has a check behind it.
    const verified = popular.servers.filter((s) => s.verified);
    expect(verified.map((s) => s.name)).toContain("Boba Order Bot");
    expect(verified.every((s) => (s as Summary & { lastCheckedAt: string | null }).lastCheckedAt !== null)).toBe(true);
    expect((await search({})).servers).toHaveLength(10);
  });

  it("get_server answers by id or slug with the tools, prices, payment methods and check the probe read", async () => {
    const [boba] = (await search({ query: "boba" })).servers;
    for (const key of [boba!.id, "boba-order-bot"]) {
      const result = await call("get_server", { id: key });
      expect(result.isError ?? false).toBe(false);
      const details = result.structuredContent as Record<string, unknown>;
      expect(details).toMatchObject({
        id: boba!.id,
        name: "Boba Order Bot",
        registryName: "dev.agora-mcp/boba-order-bot",
        verified: true,
        reachable: true,
        paymentMethods: [
          { id: "USDC_BASE_SEPOLIA", network: "base-sepolia", asset: "USDC", payTo: PLACEHOLDER_WALLET },
        ],
        lastVerification: { status: "passed", checkedAt: expect.any(String), message: null },
        detailUrl: `${SITE}/marketplace/boba-order-bot`,
      });
      const facts = details as {
        tools: { name: string; priceUsd: number | null }[];
        pricedItems: { name: string; priceUsd: number; toolName: string }[];
      };
      expect(facts.tools.map((t) => [t.name, t.priceUsd])).toEqual([
        ["price-listing", null],
        ["payment-methods", null],
        ["make-purchase", 0.01],
        ["job-status", null],
        ["weather", 0.01],
        ["market-report", 0.25],
        ["logo-render", 0.1],
      ]);
      expect(facts.pricedItems.map((i) => [i.name, i.priceUsd, i.toolName])).toEqual([
        ["Current weather", 0.01, "make-purchase"],
        ["Market report", 0.25, "make-purchase"],
        ["Page screenshot", 0, "make-purchase"],
        ["Logo render", 0.1, "make-purchase"],
        ["weather", 0.01, "weather"],
        ["market-report", 0.25, "market-report"],
        ["logo-render", 0.1, "logo-render"],
      ]);
      expect(details.clientConfig).toMatchObject({ mcpServers: { agora: { command: "npx" } } });
      expect(text(result)).toContain("- make-purchase: $0.01");
      expect(text(result)).toContain("- Logo render: $0.10 USDC (buy with make-purchase)");
      expect(text(result)).toContain(`- USDC_BASE_SEPOLIA → ${PLACEHOLDER_WALLET}`);
      expect(text(result)).toMatch(/Last verification: passed at /);
      expect(text(result)).toContain('"mcpServers"');
    }
  });

  it("get_server says a server no probe has reached is not yet verified, and claims nothing", async () => {
    const result = await call("get_server", { id: "ai-powered-web-scraper" });
    expect(result.structuredContent).toMatchObject({
      verified: false,
      lastCheckedAt: null,
      reachable: null,
      tools: [],
      paymentMethods: [],
      lastVerification: null,
    });
    expect(text(result)).toMatch(/not yet verified/i);
  });

  it("get_server answers an unknown or unapproved id with a tool error, not a crash", async () => {
    for (const id of [
      "no-such-server",
      "00000000-0000-0000-0000-000000000000",
      "pending-review-example",
      "rejected-example",
    ]) {
      const result = await call("get_server", { id });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        `No approved MCP server has the id, slug or URL "${id}". Use search_servers to find one.`,
      );
    }
  });

  it("list_categories counts approved servers per category", async () => {
    const result = await call("list_categories");
    const { categories } = result.structuredContent as { categories: { name: string; count: number }[] };
    expect(categories).toEqual(await listCategories(conn.db));
    expect(categories.find((c) => c.name === "Finance")!.count).toBeGreaterThan(0);
    expect(text(result)).toMatch(/- Finance \(\d+\)/);
  });

  it.each([
    [{ limit: 51 }, /limit/],
    [{ limit: 0 }, /limit/],
    [{ price: "cheap" }, /price/],
    [{ sort: "random" }, /sort/],
    [{ query: "x".repeat(201) }, /query must be at most 200 characters/],
  ])("search_servers refuses %o with the SDK's validation error", async (args, message) => {
    const result = await call("search_servers", args);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Input validation error/);
    expect(text(result)).toMatch(message);
  });

  it("refuses a bad cursor and a missing id as tool errors", async () => {
    const bad = await call("search_servers", { cursor: "bogus" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/cursor is not valid/);
    const missing = await call("get_server", {});
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/Input validation error/);
  });

  it("answers a tool it does not have with JSON-RPC error -32602, not a tool result", async () => {
    const res = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "buy_everything", arguments: {} },
      }),
    );
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { id: number; result?: unknown; error?: { code: number; message: string } };
    expect(answer.result).toBeUndefined();
    expect(answer).toMatchObject({
      id: 7,
      error: { code: -32602, message: expect.stringContaining("Tool buy_everything not found") },
    });
    // The SDK's client sees a protocol error it throws, as it does for any server built on the SDK.
    await expect(call("buy_everything")).rejects.toMatchObject({ code: -32602 });
    // A tool it has, called with arguments that do not fit, stays a tool error the model can read.
    expect((await call("get_server", {})).isError).toBe(true);
  });

  it(`pages through a 1,000-listing catalogue without repeats or gaps, in every order`, async () => {
    expect(approved).toBeGreaterThan(1000);
    for (const sort of ["popular", "newest", "name"] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page: SearchAnswer = await search({ sort, limit: 50, ...(cursor ? { cursor } : {}) });
        expect(page).toMatchObject({ total: 1000, totalCapped: true });
        seen.push(...page.servers.map((s) => s.id));
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor);
      expect(pages).toBe(Math.ceil(approved / 50));
      expect(seen).toHaveLength(approved);
      expect(new Set(seen).size).toBe(approved);
    }
    const ai = await search({ category: "AI", limit: 1 });
    let seenAi = 0;
    let cursor: string | null = "";
    while (cursor !== null) {
      const page: SearchAnswer = await search({ category: "AI", limit: 50, ...(cursor ? { cursor } : {}) });
      seenAi += page.servers.length;
      cursor = page.nextCursor;
    }
    expect(seenAi).toBe(ai.total);
  });

  it("answers GET and DELETE with 405 and a JSON-RPC error (stateless)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(endpoint, { method, headers: { accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toMatch(/POST/);
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
    }
  });

  it("answers a CORS preflight so browser-based clients may call it", async () => {
    const res = await fetch(endpoint, {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Mcp-Protocol-Version/);
  });

  it("refuses a wrong content type with 415, a body over 64 KB with 413, and bad JSON with a parse error", async () => {
    const form = await post("a=1", { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { message: "Content-Type must be application/json." },
    });

    const padded = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: { pad: "x".repeat(65 * 1024) } },
    });
    const big = await post(padded);
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { message: "Request body must be at most 64 KB." },
    });
    // Just under the cap is accepted.
    const fits = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { pad: "x".repeat(60 * 1024) } },
      }),
    );
    expect(fits.status).toBe(200);

    const broken = await post("{not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: -32700, data: { code: "invalid_json" } } });
  });

  it("rate-limits each address with 429, Retry-After and a JSON-RPC error", async () => {
    setRateLimits(true);
    try {
      const ip = { "x-agora-client-address": `198.51.100.${driver === "pglite" ? 7 : 8}` };
      for (let i = 0; i < 120; i++) expect((await post(listToolsMessage, ip)).status).toBe(200);
      const limited = await post(listToolsMessage, ip);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await limited.json()).toMatchObject({
        jsonrpc: "2.0",
        error: { code: -32000, message: expect.stringMatching(/Too many requests/) },
        id: null,
      });
      expect((await post(listToolsMessage, { "x-agora-client-address": "198.51.100.99" })).status).toBe(200);
    } finally {
      setRateLimits(false);
    }
  });
});
