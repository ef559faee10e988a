// /discovery/resources lists the paid tools of servers built with other libraries than Agora's kit, each with the
// requirements the server itself answered (never rewritten), in the x402 version it answered them in: Cloudflare's
// agents/x402 as a version 2 entry, Vercel's x402-mcp (version 1 only) as a version 1 entry with its own version 1
// requirements.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/discovery/resources/route";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPaidStyleServer, type PaidStyleServer } from "../support/paid-style-server";
import { discoveryResourcesResponse, mcpInput as input, type DiscoveryEntry } from "../support/x402-discovery";

const PAYEE = "0x7777777777777777777777777777777777777777";
const meta = (entry: DiscoveryEntry) =>
  (entry as unknown as { metadata: { slug: string; paidStyle?: string } }).metadata;

describe.each(drivers())("GET /discovery/resources with servers of other libraries on %s", (driver) => {
  let conn: TestConnection;
  let cloudflare: PaidStyleServer;
  let vercel: PaidStyleServer;

  beforeAll(async () => {
    process.env.PROBE_ALLOW_PRIVATE_HOSTS = "true";
    process.env.SITE_URL = "https://agora.test";
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    cloudflare = await startPaidStyleServer(
      [{ name: "summarize", style: "cloudflare-agents", amount: () => "30000" }, { name: "help" }],
      PAYEE,
    );
    vercel = await startPaidStyleServer(
      [{ name: "translate", style: "vercel-x402-mcp" }, { name: "languages" }],
      PAYEE,
    );
    for (const [name, server] of [
      ["Summaries", cloudflare],
      ["Translations", vercel],
    ] as const) {
      const listing = await insertListing(conn.db, {
        name,
        description: `${name}, paid per call.`,
        categories: ["Text"],
        serverUrl: server.url,
        status: "approved",
      });
      await checkListing(conn.db, listing.id, { allowPrivateHosts: true });
    }
  });
  afterAll(async () => {
    await Promise.all([cloudflare?.close(), vercel?.close()]);
    await conn?.close();
    for (const name of ["PROBE_ALLOW_PRIVATE_HOSTS", "SITE_URL"]) delete process.env[name];
    reloadEnv();
  });

  it("lists the version 2 paid tool with the server's own requirements, its style, input schema and example", async () => {
    const res = await GET(new Request("http://localhost/discovery/resources"));
    expect(res.status).toBe(200);
    const body = discoveryResourcesResponse.parse(await res.json());
    expect(body.items.map((e) => [meta(e).slug, input(e).toolName])).toEqual([
      ["summaries", "summarize"],
      ["translations", "translate"],
    ]);
    const entry = body.items[0];
    expect(entry).toMatchObject({ resource: cloudflare.url, type: "mcp", x402Version: 2 });
    expect(meta(entry!).paidStyle).toBe("cloudflare-agents");
    expect(input(entry!).inputSchema).toMatchObject({ type: "object", required: ["topic"] });

    // What the tool answers a client that calls it with the entry's example, unpaid: the same requirements.
    const client = new Client({ name: "discovery-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(cloudflare.url)));
    try {
      const answer = await client.callTool({ name: "summarize", arguments: input(entry!).example });
      expect(answer.isError).toBe(true);
      expect((answer._meta as Record<string, { accepts: unknown }>)["x402/error"]!.accepts).toEqual(entry!.accepts);
    } finally {
      await client.close();
    }
    // The tools nothing marks as paid were never called, by the checks or by discovery.
    expect(cloudflare.calls.help).toBe(0);
    expect(vercel.calls).toEqual({ translate: 2, languages: 0 });
  });

  it("lists the version 1 paid tool as a version 1 entry, with exactly the requirements the server answered", async () => {
    const res = await GET(new Request("http://localhost/discovery/resources?network=base-sepolia"));
    const body = discoveryResourcesResponse.parse(await res.json());
    // The answer is version 2; each entry says its own version, and it is its accepts' version.
    expect(body.x402Version).toBe(2);
    const entry = body.items.find((e) => meta(e).slug === "translations")!;
    expect(entry).toMatchObject({ resource: vercel.url, type: "mcp", x402Version: 1 });
    expect(meta(entry).paidStyle).toBe("vercel-x402-mcp");
    expect(entry.accepts).toEqual([
      expect.objectContaining({ scheme: "exact", network: "base-sepolia", payTo: PAYEE }),
    ]);
    expect(entry.accepts[0]).not.toHaveProperty("amount");

    const client = new Client({ name: "discovery-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(vercel.url)));
    try {
      const answer = await client.callTool({ name: "translate", arguments: input(entry).example });
      expect(answer.isError).toBe(true);
      expect((answer.structuredContent as { x402Version: number; accepts: unknown }).accepts).toEqual(entry.accepts);
    } finally {
      await client.close();
    }

    // The Bazaar's filters read version 1 entries as they read version 2 ones.
    const filtered = async (query: string) =>
      discoveryResourcesResponse
        .parse(await (await GET(new Request(`http://localhost/discovery/resources?${query}`))).json())
        .items.map((e) => meta(e).slug);
    expect(await filtered("network=eip155:84532")).toContain("translations");
    expect(await filtered(`payTo=${PAYEE}`)).toEqual(["summaries", "translations"]);
    expect(await filtered("network=base")).toEqual([]);
  });
});
