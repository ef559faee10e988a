// The registry for agents on the production server: the MCP SDK's client and the MCP Inspector's CLI
// drive /api/mcp over HTTP, and /v0/servers answers are checked against the official registry schema.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { officialSchema } from "../support/official-registry";

const run = promisify(execFile);
/**
 * Approved listings at the moment of the test, as the JSON API counts them: other specs (the review flow) approve
 * listings during the run, so the total is read, never fixed. The prepared catalogue alone holds 43 (42 approved
 * sample listings and the markup fixture; see marketplace.spec.ts).
 */
async function approvedTotal(request: APIRequestContext): Promise<number> {
  const res = await request.get("/api/mcp-agents?limit=1");
  expect(res.status()).toBe(200);
  const total = Number(res.headers()["x-total-count"]);
  expect(total).toBeGreaterThanOrEqual(43);
  return total;
}

type Summary = { id: string; name: string; slug: string; detailUrl: string; serverUrl: string };
type SearchAnswer = { servers: Summary[]; total: number; nextCursor: string | null };

// Protocol checks, not layout: once is enough.
test.beforeEach(({ isMobile }) => test.skip(isMobile, "protocol checks run on the desktop project"));

test.describe("MCP endpoint with the SDK client", () => {
  let client: Client;
  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  test.beforeEach(async ({ baseURL }) => {
    client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL)));
  });
  test.afterEach(async () => client?.close());

  test("initializes, lists the tools and calls each of them", async ({ baseURL }) => {
    expect(client.getServerVersion()?.name).toBe("agora-registry");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["get_server", "list_categories", "search_servers"]);
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe("object");

    const found = await call("search_servers", { query: "boba" });
    const answer = found.structuredContent as SearchAnswer;
    expect(answer.servers.map((s) => s.name)).toEqual(["Boba Order Bot"]);
    expect(answer.servers[0]!.detailUrl).toBe(`${baseURL}/marketplace/boba-order-bot`);

    const details = await call("get_server", { id: answer.servers[0]!.id });
    // Boba's sample server is the run's reference server, probed when the database was prepared.
    expect(details.structuredContent).toMatchObject({
      slug: "boba-order-bot",
      verified: true,
      reachable: true,
      paymentMethods: [{ id: "USDC_BASE_SEPOLIA", network: "base-sepolia", asset: "USDC" }],
      lastVerification: { status: "passed" },
    });
    expect((details.structuredContent as { pricedItems: { name: string }[] }).pricedItems.map((i) => i.name)).toEqual([
      "Current weather",
      "Market report",
      "Page screenshot",
      "Logo render",
      "weather",
      "market-report",
      "logo-render",
    ]);
    expect((details.content[0] as { text: string }).text).toMatch(/Last verification: passed at /);

    const categories = await call("list_categories");
    expect(
      (categories.structuredContent as { categories: { name: string }[] }).categories.map((c) => c.name),
    ).toContain("Finance");
  });

  test("answers an unknown id and invalid arguments with tool errors", async () => {
    const unknown = await call("get_server", { id: "no-such-server" });
    expect(unknown.isError).toBe(true);
    expect((unknown.content[0] as { text: string }).text).toMatch(/No approved MCP server/);
    const invalid = await call("search_servers", { limit: 500 });
    expect(invalid.isError).toBe(true);
    expect((invalid.content[0] as { text: string }).text).toMatch(/Input validation error.*limit/);
  });

  test("pages through the whole catalogue by cursor without repeats or gaps", async ({ request }) => {
    const TOTAL = await approvedTotal(request);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: SearchAnswer = (
        await call("search_servers", { sort: "newest", limit: 10, ...(cursor ? { cursor } : {}) })
      ).structuredContent as SearchAnswer;
      expect(page.total).toBe(TOTAL);
      ids.push(...page.servers.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(ids).toHaveLength(TOTAL);
    expect(new Set(ids).size).toBe(TOTAL);
  });
});

test.describe("MCP endpoint over plain HTTP", () => {
  test("refuses GET with 405, a wrong type with 415 and a big body with 413", async ({ request }) => {
    expect((await request.get("/api/mcp")).status()).toBe(405);
    const headers = { accept: "application/json, text/event-stream" };
    const typed = await request.post("/api/mcp", { headers: { ...headers, "content-type": "text/plain" }, data: "{}" });
    expect(typed.status()).toBe(415);
    const big = await request.post("/api/mcp", {
      headers: { ...headers, "content-type": "application/json" },
      data: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { pad: "x".repeat(70_000) } },
      }),
    });
    expect(big.status()).toBe(413);
    expect(await big.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
  });
});

test.describe("MCP Inspector CLI", () => {
  // The pinned devDependency, never a download: npx --no-install fails rather than fetch.
  const inspector = async (url: string, ...args: string[]) => {
    const { stdout } = await run(
      "npx",
      ["--no-install", "@modelcontextprotocol/inspector", "--cli", url, "--transport", "http", ...args],
      {
        timeout: 60_000,
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
    return JSON.parse(stdout);
  };

  test("lists the tools", async ({ baseURL }) => {
    test.setTimeout(90_000);
    const { tools } = await inspector(`${baseURL}/api/mcp`, "--method", "tools/list");
    expect(tools.map((t: { name: string }) => t.name).sort()).toEqual([
      "get_server",
      "list_categories",
      "search_servers",
    ]);
  });

  test("calls search_servers", async ({ baseURL }) => {
    test.setTimeout(90_000);
    const result = await inspector(
      `${baseURL}/api/mcp`,
      "--method",
      "tools/call",
      "--tool-name",
      "search_servers",
      "--tool-arg",
      "query=boba",
    );
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent.servers[0].name).toBe("Boba Order Bot");
    expect(result.content[0].text).toContain("Boba Order Bot");
  });
});

test.describe("official-registry API", () => {
  test("lists and pages /v0/servers, each answer valid against the official schema", async ({ request }) => {
    const TOTAL = await approvedTotal(request);
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await request.get("/v0/servers", { params: { limit: 20, ...(cursor ? { cursor } : {}) } });
      expect(res.status()).toBe(200);
      const body = await res.json();
      officialSchema.assertServerList(body);
      names.push(...body.servers.map((e: { server: { name: string } }) => e.server.name));
      cursor = body.metadata.nextCursor;
    } while (cursor);
    expect(names).toHaveLength(TOTAL);
    expect(new Set(names).size).toBe(TOTAL);
    const v01 = await (await request.get("/v0.1/servers", { params: { search: "boba" } })).json();
    officialSchema.assertServerList(v01);
    expect(v01.servers[0].server.name).toBe("dev.agora-mcp/boba-order-bot");
  });

  test("answers one server by encoded and plain name, and 404 for unknown ones", async ({ request }) => {
    for (const path of [
      "/v0.1/servers/dev.agora-mcp%2Fboba-order-bot/versions/latest",
      "/v0/servers/dev.agora-mcp/boba-order-bot/versions/latest",
      "/v0/servers/boba-order-bot",
    ]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      const body = await res.json();
      officialSchema.assertServerResponse(body);
      expect(body.server.name).toBe("dev.agora-mcp/boba-order-bot");
    }
    const missing = await request.get("/v0/servers/dev.agora-mcp%2Fno-such-server/versions/latest");
    expect(missing.status()).toBe(404);
    expect(await missing.json()).toMatchObject({ error: "Server not found" });
  });
});
