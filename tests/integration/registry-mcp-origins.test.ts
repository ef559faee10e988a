// The site's /api/mcp policy on Host and Origin (README, "Registry for agents"): it answers any Host and any
// Origin, because it is public, keyless and read-only, so a request from a rebound or foreign page can learn
// or do nothing a direct request cannot. That holds only while credentials change nothing: these tests send
// a signed-in user's bearer token and a cookie from a foreign origin and expect exactly the anonymous answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { listings } from "@/db/schema";
import { toListingRow } from "@/lib/listings/write";
import { registerWithToken } from "@/lib/auth/password-accounts";
import { POST } from "@/app/api/mcp/route";
import { reloadEnv } from "@/lib/env";
import { openTestDatabase, type TestConnection } from "../support/databases";

let conn: TestConnection;
let bearer: string;
let id = 0;

beforeAll(async () => {
  conn = await openTestDatabase("pglite");
  setDatabase(conn);
  process.env.RATE_LIMIT_DISABLED = "1";
  reloadEnv();
  const row = (name: string, slug: string, status: "approved" | "pending") =>
    toListingRow({
      name,
      slug,
      description: `${name}: an MCP server for tests.`,
      categories: ["AI"],
      serverUrl: `https://${slug}.example/mcp`,
      status,
      price: 0.01,
    });
  await conn.db
    .insert(listings)
    .values([
      row("Open Weather Tools", "open-weather-tools", "approved"),
      row("Hidden Weather Draft", "hidden-weather-draft", "pending"),
    ]);
  const { issued } = await registerWithToken(
    conn.db,
    {
      email: `mcp-policy-${Date.now()}@example.com`,
      password: "a long enough test password 42",
      name: "Policy Tester",
    },
    "2001:db8::1",
  );
  bearer = issued.token;
});

afterAll(async () => {
  await conn?.close();
});

/** One JSON-RPC call to the route, as a browser on `origin` would send it (or a plain program with no extras). */
async function rpc(method: string, params: Record<string, unknown>, extra: Record<string, string> = {}) {
  const request = new Request("http://localhost/api/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "x-agora-client-address": "2001:db8::7",
      ...extra,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
  });
  const response = await POST(request);
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  return { status: response.status, headers: response.headers, result: body.result, error: body.error };
}

const HOSTILE = {
  host: "rebind.attacker.example",
  origin: "https://attacker.example",
  cookie: "authjs.session-token=stolen-or-not; agora_session=abc",
};

describe("/api/mcp from a foreign Host and Origin", () => {
  it("answers, with CORS for any origin and never for credentials, and sets no cookie", async () => {
    const answer = await rpc("tools/list", {}, HOSTILE);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
    expect(answer.headers.get("set-cookie")).toBeNull();
  });

  it("offers read-only tools only", async () => {
    const { result } = await rpc("tools/list", {}, HOSTILE);
    const tools = (
      result as { tools: { name: string; annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean } }[] }
    ).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(["get_server", "list_categories", "search_servers"]);
    for (const tool of tools) expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it("gives a signed-in user's token and cookies exactly the anonymous answer", async () => {
    const credentials = { ...HOSTILE, authorization: `Bearer ${bearer}` };
    for (const [name, args] of [
      ["search_servers", { query: "weather" }],
      ["get_server", { slug: "hidden-weather-draft" }],
      ["list_categories", {}],
    ] as const) {
      const anonymous = await rpc("tools/call", { name, arguments: args });
      const withCredentials = await rpc("tools/call", { name, arguments: args }, credentials);
      expect(withCredentials.result).toEqual(anonymous.result);
    }
    const search = await rpc("tools/call", { name: "search_servers", arguments: { query: "weather" } }, credentials);
    const text = JSON.stringify(search.result);
    expect(text).toContain("open-weather-tools");
    expect(text).not.toContain("hidden-weather-draft");
  });
});
