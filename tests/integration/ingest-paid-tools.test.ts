// Paid MCP servers built with the field's libraries are listed and bought through Agora: a Bazaar's entries name
// the paid tools of a server (one entry per tool), a registry entry names them in its _meta, or the server's own
// tools/list marks them; the probe calls exactly those tools unpaid (never a tool nothing names), and
// /discovery/resources then lists each version 2 tool with the server's own requirements. Servers on loopback
// answer an unpaid call the way x402's MCP transport, Cloudflare's agents/x402 and Vercel's x402-mcp do.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/discovery/resources/route";
import { ingestedServers, listingProbes, listings } from "@/db/schema";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { runIngest } from "@/lib/ingest/run-ingest";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { fixture, startFixtureRegistry, type FixtureRegistry } from "../support/fixture-registry";
import { mcpEntry, startLocalBazaar, type LocalBazaar } from "../support/local-bazaar";
import {
  paymentRequiredV1,
  paymentRequiredV2,
  startPaidStyleServer,
  type PaidStyleServer,
} from "../support/paid-style-server";
import { discoveryResourcesResponse, mcpInput as input } from "../support/x402-discovery";

const loopback = { allowPrivateHosts: true, retryDelayMs: 10, timeoutMs: 10_000 };
const PAYEE = "0x5555555555555555555555555555555555555555";
const PUBLISHER = "io.modelcontextprotocol.registry/publisher-provided";

describe.each(drivers())("paid tools named upstream on %s", (driver) => {
  let conn: TestConnection;
  let bazaar: LocalBazaar;
  let registry: FixtureRegistry;
  let weather: PaidStyleServer; // x402's MCP transport: nothing in tools/list, two paid tools named by the Bazaar
  let quotes: PaidStyleServer; // x402's MCP transport, its paid tool named in the registry entry's _meta
  let silent: PaidStyleServer; // a tool that would ask for payment, but nothing names it
  let summaries: PaidStyleServer; // Cloudflare's agents/x402: tools/list marks the paid tool
  let translations: PaidStyleServer; // Vercel's x402-mcp: paymentHint, version 1 requirements only

  beforeAll(async () => {
    process.env.PROBE_ALLOW_PRIVATE_HOSTS = "true";
    process.env.SITE_URL = "https://agora.test";
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    weather = await startPaidStyleServer(
      [
        { name: "forecast", style: "x402-mcp" },
        { name: "history", style: "x402-mcp", amount: () => "20000" },
        { name: "echo" },
      ],
      PAYEE,
    );
    quotes = await startPaidStyleServer(
      [{ name: "quote", style: "x402-mcp", amount: () => "5000" }, { name: "ping" }],
      PAYEE,
    );
    silent = await startPaidStyleServer([{ name: "lookup", style: "x402-mcp" }, { name: "status" }], PAYEE);
    summaries = await startPaidStyleServer(
      [{ name: "summarize", style: "cloudflare-agents" }, { name: "help" }],
      PAYEE,
    );
    translations = await startPaidStyleServer(
      [{ name: "translate", style: "vercel-x402-mcp" }, { name: "languages" }],
      PAYEE,
    );

    const { port } = new URL(weather.url);
    bazaar = await startLocalBazaar([
      mcpEntry(weather.url, "forecast", { serviceName: "Weather", description: "Forecasts, paid per call." }),
      "not an entry",
      // The free tool named only where it does not count: an HTTP resource, and a stdio transport.
      { ...mcpEntry(weather.url, "echo"), type: "http" },
      mcpEntry(weather.url, "echo", {
        extensions: { bazaar: { info: { input: { type: "mcp", toolName: "echo", transport: "stdio" } } } },
      }),
      // Names that are no tool's: a look-alike of the free one, an object, a name past 128 characters.
      mcpEntry(weather.url, "echo\u200b"),
      mcpEntry(weather.url, { $ne: "" }),
      mcpEntry(weather.url, "e".repeat(5_000)),
      mcpEntry("javascript:alert(1)", "forecast"),
      // The same server in another spelling of its URL, with its second paid tool (the spec's `tool` field).
      {
        ...mcpEntry(`HTTP://127.0.0.1:${port}/mcp`, undefined),
        extensions: { bazaar: { info: { input: { type: "mcp", tool: "history", transport: "streamable-http" } } } },
      },
      // A tool the server does not list: named, never called.
      mcpEntry(weather.url, "drop_everything"),
    ]);
    const named = {
      ...fixture("io.decisionrules.mcp-server.json"),
      remotes: [{ type: "streamable-http", url: quotes.url }],
      _meta: { [PUBLISHER]: { "dev.agora-mcp/paid-tools": ["quote"] } },
    };
    const unnamed = {
      ...fixture("io.github.blueskylineassets.agent-observability.json"),
      remotes: [{ type: "streamable-http", url: silent.url }],
    };
    const marked = {
      ...fixture("io.github.golfgolfgolf200.warppay402-server.json"),
      transports: undefined,
      remotes: [{ type: "streamable-http", url: summaries.url }],
    };
    const hinted = {
      name: "io.github.example/translations",
      description: "Vercel's x402-mcp.",
      remotes: [{ type: "streamable-http", url: translations.url }],
    };
    registry = await startFixtureRegistry(
      [named, unnamed, marked, hinted].map((server, i) => ({ server, updatedAt: `2026-01-0${i + 1}T00:00:00Z` })),
      10,
    );
  });
  afterAll(async () => {
    await Promise.all([
      bazaar?.close(),
      registry?.close(),
      ...[weather, quotes, silent, summaries, translations].map((s) => s?.close()),
    ]);
    await conn?.close();
    for (const name of ["PROBE_ALLOW_PRIVATE_HOSTS", "SITE_URL"]) delete process.env[name];
    reloadEnv();
  });

  const sources = () => parseIngestSources(`x402-discovery=${bazaar.url},mcp-registry=${registry.url}`);
  const listingAt = async (url: string) =>
    (await conn.db.select().from(listings).where(eq(listings.serverUrl, url)))[0];
  const candidateAt = async (url: string) =>
    (await conn.db.select().from(ingestedServers).where(eq(ingestedServers.remoteUrl, url)))[0];

  it("lists one server per Bazaar resource with its named tools as items, each verified by unpaid calls of exactly those tools", async () => {
    const summary = await runIngest(conn.db, sources(), loopback);
    const [discovery, reg] = summary.sources;
    expect(discovery!.counts).toMatchObject({ seen: 10, notMcp: 2, malformed: 2, candidates: 1, namedTools: 3 });
    expect(reg!.counts).toMatchObject({ seen: 4, candidates: 4, namedTools: 1 });
    expect(summary.candidates).toMatchObject({ checked: 5, paid: 4, listed: 4, free: 1 });

    const listing = (await listingAt(weather.url))!;
    expect(listing).toMatchObject({
      source: "x402-discovery",
      name: "Weather",
      status: "approved",
      verified: true,
      price: 0.01,
    });
    // Each paid tool asked twice (a price must hold between two asks); the free tool, never.
    expect(weather.calls).toEqual({ forecast: 2, history: 2, echo: 0 });
    const candidate = (await candidateAt(weather.url))!;
    expect(candidate.paidTools).toEqual([
      { name: "forecast", reason: "discovery" },
      { name: "history", reason: "discovery" },
      { name: "drop_everything", reason: "discovery" },
    ]);
  });

  it("lists a registry entry that names its paid tool, and one whose server marks its own; never calls a tool nothing names", async () => {
    expect(await listingAt(quotes.url)).toMatchObject({
      source: "mcp-registry",
      upstreamName: "io.decisionrules/mcp-server",
      price: 0.005,
      verified: true,
    });
    expect(quotes.calls).toEqual({ quote: 2, ping: 0 });
    expect(await listingAt(summaries.url)).toMatchObject({ source: "mcp-registry", verified: true });
    expect(summaries.calls).toEqual({ summarize: 2, help: 0 });
    expect(await listingAt(translations.url)).toMatchObject({ source: "mcp-registry", price: 0.01 });
    // Nothing names `lookup` and its server marks nothing: tools/list only, not one call, not listed.
    expect(await listingAt(silent.url)).toBeUndefined();
    expect(silent.calls).toEqual({ lookup: 0, status: 0 });
    expect(await candidateAt(silent.url)).toMatchObject({ outcome: "free", paidTools: [], listingId: null });
  });

  it("records per tool why it was called and how it asked", async () => {
    const [probe] = await conn.db
      .select()
      .from(listingProbes)
      .where(eq(listingProbes.listingId, (await listingAt(weather.url))!.id));
    const paidOf = (name: string) => probe!.tools.find((t) => t.name === name)?.paid;
    expect(paidOf("forecast")).toMatchObject({
      reason: "discovery",
      style: "x402-mcp",
      x402Version: 2,
      status: "priced",
    });
    expect(paidOf("echo")).toBeUndefined();
    expect(probe!.quirks).toContain("drop_everything: named as paid (discovery) but not in tools/list");
    expect(probe!.pricedItems.map((i) => [i.toolName, i.units, i.style])).toEqual([
      ["forecast", "10000", "x402-mcp"],
      ["history", "20000", "x402-mcp"],
    ]);
  });

  it("lists every paid tool in /discovery/resources with the server's own requirements, version 1 ones as version 1 entries", async () => {
    const res = await GET(new Request("http://localhost/discovery/resources?limit=50"));
    expect(res.status).toBe(200);
    const body = discoveryResourcesResponse.parse(await res.json());
    const entries = body.items.map((e) => [e.resource, input(e).toolName]);
    expect(entries.sort()).toEqual(
      [
        [weather.url, "forecast"],
        [weather.url, "history"],
        [quotes.url, "quote"],
        [summaries.url, "summarize"],
        [translations.url, "translate"],
      ].sort(),
    );
    // Vercel's x402-mcp answers version 1 only: its entry is version 1, with exactly what it answered.
    const v1 = body.items.find((e) => e.resource === translations.url)!;
    expect(v1).toMatchObject({ type: "mcp", x402Version: 1, metadata: { paidStyle: "vercel-x402-mcp" } });
    expect(v1.accepts).toEqual(paymentRequiredV1(translations.url, PAYEE, "10000").accepts);
    for (const entry of body.items.filter((e) => e !== v1)) {
      const asked = paymentRequiredV2(
        "",
        PAYEE,
        entry.resource === quotes.url ? "5000" : input(entry).toolName === "history" ? "20000" : "10000",
      );
      // Exactly what the tool's unpaid call answered: nothing rewritten, nothing added.
      expect(entry.accepts).toEqual(asked.accepts);
      expect(entry).toMatchObject({
        type: "mcp",
        x402Version: 2,
        metadata: { paidStyle: entry.resource === summaries.url ? "cloudflare-agents" : "x402-mcp" },
      });
      expect(input(entry).inputSchema).toMatchObject({
        type: "object",
        properties: { topic: { type: "string" } },
        required: ["topic"],
      });
      expect(input(entry).example).toEqual({ topic: "tea" });
    }
  });

  it("names the same tools again at the listing's own checks and at the candidate's re-check", async () => {
    const listing = (await listingAt(weather.url))!;
    const checked = await checkListing(conn.db, listing.id, loopback);
    expect(checked!.result.pricedItems.map((i) => i.toolName)).toEqual(["forecast", "history"]);
    expect(weather.calls).toEqual({ forecast: 4, history: 4, echo: 0 });
    // Two days on, every candidate is due again: the Bazaar's tools are called again, the unnamed one still not.
    const later = await runIngest(conn.db, sources(), { ...loopback, now: new Date(Date.now() + 2 * 24 * 3600_000) });
    expect(later.candidates).toMatchObject({ checked: 4, paid: 4, listed: 0 });
    expect(weather.calls).toEqual({ forecast: 6, history: 6, echo: 0 });
    expect(silent.calls).toEqual({ lookup: 0, status: 0 });
  });

  it("a second run over the same entries writes nothing", async () => {
    const before = await conn.db.select().from(ingestedServers);
    const summary = await runIngest(conn.db, sources(), loopback);
    for (const run of summary.sources) expect(run.counts.written).toBe(0);
    expect(summary.candidates.checked).toBe(0);
    expect(await conn.db.select().from(ingestedServers)).toEqual(before);
  });
});
