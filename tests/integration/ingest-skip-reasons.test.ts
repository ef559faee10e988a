// Every entry ingestion does not list is counted with its reason (docs/operations.md, "Why an entry is not listed",
// quotes these runs). First the real server.json documents of tests/fixtures/registry as the registry serves them,
// checked under the production address guard with no DNS at all (nothing here reaches the internet, so every public
// remote is "not reachable"); then a server on loopback for each reason a reachable server is not listed.
import { eq } from "drizzle-orm";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestedServers } from "@/db/schema";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { candidateLines } from "@/lib/ingest/candidate-lines";
import { runIngest } from "@/lib/ingest/run-ingest";
import type { Lookup } from "@/lib/ssrf";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { allFixtureEntries, startFixtureRegistry, type FixtureRegistry } from "../support/fixture-registry";
import { startPaidStyleServer, type PaidStyleServer } from "../support/paid-style-server";

const PAYEE = "0x6666666666666666666666666666666666666666";
const PUBLISHER = "io.modelcontextprotocol.registry/publisher-provided";
/** No name resolves: a check never asks a DNS server anything. */
const noDns: Lookup = async (hostname) => {
  throw Object.assign(new Error(`${hostname}: no DNS in tests`), { code: "ENOTFOUND" });
};

describe.each(drivers())("the fixture registry, as published, on %s", (driver) => {
  let conn: TestConnection;
  let registry: FixtureRegistry;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    registry = await startFixtureRegistry(allFixtureEntries(), 100);
  });
  afterAll(async () => {
    await registry?.close();
    await conn?.close();
  });

  it("counts every entry it skips, and every candidate's reason", async () => {
    const summary = await runIngest(conn.db, parseIngestSources(`mcp-registry=${registry.url}`), {
      sourceAllowPrivateHosts: true,
      allowPrivateHosts: false,
      lookup: noDns,
      retryDelayMs: 10,
      timeoutMs: 5_000,
      limit: 1_000,
    });
    const run = summary.sources[0]!;
    expect(run).toMatchObject({ completed: true, errors: [] });
    // 5 + 3 + 471 entries. Skipped: 7 malformed (2025 entries with an empty name), 1 older version, 1 name listed
    // twice (the 2025 seed has it too), 461 with packages only (stdio: nothing to check). The other 9 servers have
    // 10 remotes (streamable-http or sse; the legacy `transports` field read too; one remote with an empty type is none).
    expect(run.counts).toMatchObject({
      pages: 5,
      seen: 472,
      malformed: 7,
      notLatest: 1,
      duplicateName: 1,
      noRemote: 461,
      candidates: 10,
      namedTools: 0,
    });
    // 9 remote URLs (two entries share http://localhost:3001/sse): the 4 on localhost are refused by the address
    // guard, the 5 public ones cannot be reached from here (no DNS).
    // What `npm run ingest` prints of them.
    expect(candidateLines(summary.candidates)).toEqual([
      "Checked 9 candidates, 0 newly listed:",
      "      0  paid (priced items read)",
      "      4  refused: the address is private or no URL",
      "      5  not reachable",
      "      0  not MCP: answers HTTP, but not as an MCP server",
      "      0  paid, but the price changed between two asks",
      "      0  paid, but no offer Agora can pay (scheme, network or token)",
      "      0  named as paid, but the unpaid call failed",
      "      0  named as paid, but answered without asking for payment",
      "      0  free: no paid signal (no tool called)",
    ]);
  });
});

describe.each(drivers())("a server for each reason a reachable entry is not listed, on %s", (driver) => {
  let conn: TestConnection;
  let registry: FixtureRegistry;
  const servers: { url: string; close: () => Promise<void> }[] = [];
  const byName = new Map<string, PaidStyleServer>();
  let website: http.Server;
  let closedPort: string;

  const entry = (name: string, url: string, paidTools?: string[]) => ({
    server: {
      name: `io.github.stand-in/${name}`,
      description: `Stands in for: ${name}.`,
      version: "1.0.0",
      remotes: [{ type: "streamable-http", url }],
      ...(paidTools ? { _meta: { [PUBLISHER]: { "dev.agora-mcp/paid-tools": paidTools } } } : {}),
    },
    updatedAt: "2026-01-01T00:00:00Z",
  });

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    let asks = 0;
    const stand = async (name: string, tools: Parameters<typeof startPaidStyleServer>[0]) => {
      const server = await startPaidStyleServer(tools, PAYEE);
      servers.push(server);
      byName.set(name, server);
      return server.url;
    };
    // A website that answers every request with a page, never MCP.
    website = http.createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Hello</body></html>"),
    );
    await new Promise<void>((resolve) => website.listen(0, "127.0.0.1", resolve));
    const gone = http.createServer();
    await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
    closedPort = String((gone.address() as AddressInfo).port);
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    registry = await startFixtureRegistry(
      [
        entry("paid", await stand("paid", [{ name: "quote", style: "x402-mcp" }]), ["quote"]),
        entry("free", await stand("free", [{ name: "quote" }, { name: "lookup", style: "x402-mcp" }])),
        entry(
          "price-moved",
          await stand("price-moved", [
            { name: "quote", style: "x402-mcp", amount: () => String(10_000 + 1_000 * asks++) },
          ]),
          ["quote"],
        ),
        entry("no-offer", await stand("no-offer", [{ name: "quote", style: "x402-mcp", network: "eip155:1" }]), [
          "quote",
        ]),
        entry("call-failed", await stand("call-failed", [{ name: "quote", style: "x402-mcp", fails: true }]), [
          "quote",
        ]),
        entry("no-ask", await stand("no-ask", [{ name: "quote" }]), ["quote"]),
        entry("not-mcp", `http://127.0.0.1:${(website.address() as AddressInfo).port}/mcp`),
        entry("unreachable", `http://127.0.0.1:${closedPort}/mcp`),
      ],
      100,
    );
  });
  afterAll(async () => {
    await Promise.all([registry?.close(), ...servers.map((s) => s.close())]);
    website?.closeAllConnections();
    await new Promise<void>((resolve) => (website ? website.close(() => resolve()) : resolve()));
    await conn?.close();
  });

  it("counts each reason once, calls only the named tools, and stores the reason with the candidate", async () => {
    const summary = await runIngest(conn.db, parseIngestSources(`mcp-registry=${registry.url}`), {
      allowPrivateHosts: true,
      retryDelayMs: 10,
      timeoutMs: 5_000,
    });
    expect(summary.candidates).toEqual({
      checked: 8,
      listed: 1,
      paid: 1,
      free: 1,
      priceMoved: 1,
      noOffer: 1,
      callFailed: 1,
      noAsk: 1,
      notMcp: 1,
      unreachable: 1,
      refused: 0,
    });
    const outcomes = await conn.db
      .select({ name: ingestedServers.upstreamName, outcome: ingestedServers.outcome })
      .from(ingestedServers);
    expect(Object.fromEntries(outcomes.map((o) => [o.name.split("/")[1], o.outcome]))).toEqual({
      paid: "paid",
      free: "free",
      "price-moved": "price-moved",
      "no-offer": "no-offer",
      "call-failed": "call-failed",
      "no-ask": "no-ask",
      "not-mcp": "not-mcp",
      unreachable: "unreachable",
    });
    // The free server's `lookup` would have asked for payment, but nothing named it: not called.
    expect(byName.get("free")!.calls).toEqual({ quote: 0, lookup: 0 });
    // A price is asked twice; an offer Agora cannot pay, a failed call or a tool that does not ask, once.
    expect(Object.fromEntries([...byName].map(([name, s]) => [name, s.calls.quote]))).toEqual({
      paid: 2,
      free: 0,
      "price-moved": 2,
      "no-offer": 1,
      "call-failed": 1,
      "no-ask": 1,
    });
    const [priceMoved] = await conn.db
      .select()
      .from(ingestedServers)
      .where(eq(ingestedServers.upstreamName, "io.github.stand-in/price-moved"));
    expect(priceMoved!.nextCheckAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
  });
});
