// The servers the field's own libraries make (tests/support/field-servers: x402's MCP transport, Cloudflare's
// agents/x402, Vercel's x402-mcp, MCPay, the JSON-RPC 402 transport), found the way Agora finds servers: a registry
// lists them all and names nothing; a Bazaar names the paid tool of the two whose tools/list says nothing. Each is
// listed, its free tool (which changes state) is never called, its paid tool never runs, and /discovery/resources
// lists the version 2 ones with the requirements they answered.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/discovery/resources/route";
import { listings } from "@/db/schema";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { runIngest } from "@/lib/ingest/run-ingest";
import { ANVIL_TEST_KEYS } from "@/sandbox/chain";
import { startFacilitator, type LocalFacilitator } from "@/sandbox/facilitator";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { FIELD_STYLES, startFieldServer, type FieldServer, type FieldStyle } from "../support/field-servers";
import { startFixtureRegistry, type FixtureRegistry } from "../support/fixture-registry";
import { mcpEntry, startLocalBazaar, type LocalBazaar } from "../support/local-bazaar";
import { USDC_BASE_SEPOLIA } from "../support/paid-style-server";
import { discoveryResourcesResponse, mcpInput } from "../support/x402-discovery";

const PAYEE = "0x8888888888888888888888888888888888888888";
/** Styles that say nothing in tools/list: only a name from outside gets their paid tool called. */
const UNMARKED: FieldStyle[] = ["x402-mcp-v2", "jsonrpc-402"];
/** Styles that answer x402 version 1 only: in discovery as version 1 entries. */
const VERSION_1: FieldStyle[] = ["vercel-x402-mcp", "mcpay"];

describe.each(drivers())("the field's paid MCP servers, ingested on %s", (driver) => {
  let conn: TestConnection;
  let registry: FixtureRegistry;
  let bazaar: LocalBazaar;
  let facilitator: LocalFacilitator;
  const servers = new Map<FieldStyle, FieldServer>();

  beforeAll(async () => {
    process.env.PROBE_ALLOW_PRIVATE_HOSTS = "true";
    process.env.SITE_URL = "https://agora.test";
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    // No payment is made here: the facilitator only says what it supports (its chain, a closed port, is never asked).
    facilitator = await startFacilitator({ rpcUrl: "http://127.0.0.1:9", privateKey: ANVIL_TEST_KEYS.facilitator });
    for (const style of FIELD_STYLES)
      servers.set(style, await startFieldServer(style, { facilitatorUrl: facilitator.url, payTo: PAYEE }));
    registry = await startFixtureRegistry(
      FIELD_STYLES.map((style) => ({
        server: {
          name: `io.github.field/${style}`,
          description: `A weather desk on ${style}.`,
          version: "1.0.0",
          remotes: [{ type: "streamable-http", url: servers.get(style)!.url }],
        },
        updatedAt: "2026-01-01T00:00:00Z",
      })),
      10,
    );
    bazaar = await startLocalBazaar(
      UNMARKED.map((style) => mcpEntry(servers.get(style)!.url, "forecast", { serviceName: `Weather on ${style}` })),
    );
  });
  afterAll(async () => {
    await Promise.all([registry?.close(), bazaar?.close(), ...[...servers.values()].map((s) => s.close())]);
    await facilitator?.close();
    await conn?.close();
    for (const name of ["PROBE_ALLOW_PRIVATE_HOSTS", "SITE_URL"]) delete process.env[name];
    reloadEnv();
  });

  it("lists every one, calling only the paid tool (which never runs unpaid), never the free one", async () => {
    const summary = await runIngest(
      conn.db,
      parseIngestSources(`mcp-registry=${registry.url},x402-discovery=${bazaar.url}`),
      { allowPrivateHosts: true, retryDelayMs: 10, timeoutMs: 10_000 },
    );
    expect(summary.candidates).toMatchObject({
      checked: FIELD_STYLES.length,
      paid: FIELD_STYLES.length,
      listed: FIELD_STYLES.length,
    });
    const listed = await conn.db.select().from(listings);
    expect(listed.map((l) => [l.upstreamName, l.price, l.verified]).sort()).toEqual(
      FIELD_STYLES.map((style) => [`io.github.field/${style}`, 0.01, true]).sort(),
    );
    for (const [style, server] of servers) expect(server.counts, style).toEqual({ paidRuns: 0, freeCalls: 0 });
  });

  it("lists every paid tool in /discovery/resources with its own requirements, in the version the server answered", async () => {
    const body = discoveryResourcesResponse.parse(
      await (await GET(new Request("http://localhost/discovery/resources"))).json(),
    );
    expect(body.items.map((e) => e.resource).sort()).toEqual(
      FIELD_STYLES.map((style) => servers.get(style)!.url).sort(),
    );
    for (const entry of body.items) {
      expect(mcpInput(entry).toolName).toBe("forecast");
      const v1 = VERSION_1.some((style) => servers.get(style)!.url === entry.resource);
      expect(entry.x402Version).toBe(v1 ? 1 : 2);
      expect(entry.accepts).toEqual([
        expect.objectContaining(
          v1
            ? {
                scheme: "exact",
                network: "base-sepolia",
                asset: USDC_BASE_SEPOLIA,
                maxAmountRequired: "10000",
                payTo: PAYEE,
              }
            : { scheme: "exact", network: "eip155:84532", asset: USDC_BASE_SEPOLIA, amount: "10000", payTo: PAYEE },
        ),
      ]);
    }
  });
});
