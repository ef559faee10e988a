// Server cards end to end: every approved listing's card at its stable URL, valid against SEP-2127's schema and
// linked from its /v0.1 entry; the catalogue at /.well-known/mcp lists exactly the approved ones; and the probe
// reads a real server's own card and says where it differs from what the server answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { countApproved } from "@/db/queries/listings";
import { insertListing } from "@/lib/listings/write";
import { reloadEnv } from "@/lib/env";
import { probeServer } from "@/lib/probe";
import type { ReferenceServer } from "@/examples/monetized-server";
import { GET as card, OPTIONS as cardPreflight } from "@/app/servers/[slug]/server-card/route";
import { GET as wellKnown } from "@/app/.well-known/mcp/route";
import { GET as catalogJson } from "@/app/.well-known/mcp/catalog.json/route";
import { GET as aiCatalog } from "@/app/.well-known/ai-catalog.json/route";
import { GET as oneV01 } from "@/app/v0.1/servers/[...path]/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { seedProbedSample } from "../support/probed-sample";
import { serverCardSchema } from "../support/server-card-schema";
import { CARD_SERVER_INFO, startCardServer, type CardServer } from "../support/card-server";

const SITE = "https://agora.test";
type Catalog = { specVersion: string; entries: { identifier: string; type: string; url: string; name: string }[] };

const cardAt = (slug: string, headers: Record<string, string> = {}) =>
  card(new Request(`http://localhost/servers/${slug}/server-card`, { headers }), { params: Promise.resolve({ slug }) });

describe.each(drivers())("server cards on %s", (driver) => {
  let conn: TestConnection;
  let reference: ReferenceServer;

  beforeAll(async () => {
    process.env.SITE_URL = SITE;
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    reference = await seedProbedSample(conn.db);
    await insertListing(conn.db, {
      name: "Émoji Überserver 🚀",
      slug: "emoji-uberserver",
      description: `${"Ünïcödé 🚀 text that goes on ".repeat(6)}and on well past the hundred characters the schema allows.`,
      categories: ["AI"],
      price: null,
      serverUrl: "https://emoji.example.com/mcp",
      status: "approved",
    });
    await insertListing(conn.db, {
      name: "Waiting Server",
      slug: "waiting-server",
      description: "Not reviewed yet.",
      categories: ["AI"],
      price: null,
      serverUrl: "https://waiting.example.com/mcp",
      status: "pending",
    });
  });
  afterAll(async () => {
    await reference?.close();
    await conn?.close();
    delete process.env.SITE_URL;
    reloadEnv();
  });

  it("lists every approved listing's card in the catalogue, and every card validates and links back", async () => {
    const res = await wellKnown(new Request("http://localhost/.well-known/mcp"));
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const catalog = (await res.json()) as Catalog;
    expect(catalog.specVersion).toBe("1.0");
    expect(catalog.entries).toHaveLength(await countApproved(conn.db));
    expect(catalog.entries.map((e) => e.url)).not.toContain(`${SITE}/servers/waiting-server/server-card`);
    // The same catalogue at the other two addresses in use.
    expect(await (await catalogJson(new Request("http://localhost/.well-known/mcp/catalog.json"))).json()).toEqual(
      catalog,
    );
    expect(await (await aiCatalog(new Request("http://localhost/.well-known/ai-catalog.json"))).json()).toEqual(
      catalog,
    );

    for (const entry of catalog.entries) {
      expect(entry.type).toBe("application/mcp-server-card+json");
      const slug = /\/servers\/([^/]+)\/server-card$/.exec(entry.url)![1]!;
      const answer = await cardAt(slug);
      expect(answer.status).toBe(200);
      const body = await answer.json();
      serverCardSchema.assertCard(body);
      // The /v0.1 entry of the same server names the same server and links this card.
      const registry = await (
        await oneV01(new Request(`http://localhost/v0.1/servers/${encodeURIComponent(body.name)}`), {
          params: Promise.resolve({ path: body.name.split("/") }),
        })
      ).json();
      expect(registry.server.name).toBe(body.name);
      expect(registry.server.version).toBe(body.version);
      expect(registry.server.remotes[0].url).toBe(body.remotes[0].url);
      expect(registry.server._meta["dev.agora-mcp/listing"].serverCardUrl).toBe(entry.url);
    }
  });

  it("gives a probed server's card the revision the check spoke, with CORS and the card's media type when asked", async () => {
    const res = await cardAt("boba-order-bot", { accept: "application/mcp-server-card+json" });
    expect(res.headers.get("content-type")).toMatch(/^application\/mcp-server-card\+json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("etag")).toBeTruthy();
    const body = await res.json();
    expect(body).toMatchObject({
      name: "dev.agora-mcp/boba-order-bot",
      remotes: [{ type: "streamable-http", url: `${reference.url}?sample=boba-order-bot` }],
    });
    expect(body.remotes[0].supportedProtocolVersions).toHaveLength(1);
    expect((await cardAt("boba-order-bot")).headers.get("content-type")).toMatch(/^application\/json/);
    const preflight = cardPreflight(
      new Request("http://localhost/servers/boba-order-bot/server-card", {
        method: "OPTIONS",
        headers: { origin: "https://elsewhere.example", "access-control-request-method": "GET" },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("answers 404 in JSON for an unknown or unapproved listing and for a key that is not a slug", async () => {
    for (const slug of ["no-such-server", "waiting-server", "Boba-Order-Bot", "..", "%00", "x".repeat(101)]) {
      const res = await cardAt(slug);
      expect(res.status, slug).toBe(404);
      expect(await res.json()).toMatchObject({ error: "Server card not found", code: "not_found" });
    }
  });
});

describe("the probe reads a server's own card", () => {
  const servers: CardServer[] = [];
  const start = async (options: Parameters<typeof startCardServer>[0]) => {
    const server = await startCardServer(options);
    servers.push(server);
    return server;
  };
  const cardQuirks = (quirks: string[]) => quirks.filter((q) => q.startsWith("server card"));
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  const cardFor = (url: string, overrides: Record<string, unknown> = {}) => ({
    $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
    name: `com.example/${CARD_SERVER_INFO.name}`,
    version: CARD_SERVER_INFO.version,
    description: "Weather.",
    remotes: [{ type: "streamable-http", url }],
    ...overrides,
  });

  it("finds nothing to say when the card agrees with the server, wherever it is published", async () => {
    for (const at of ["endpoint", "well-known-json", "well-known"] as const) {
      const server = await start({
        card: (url: string) =>
          cardFor(url, {
            remotes: [
              { type: "streamable-http", url, supportedProtocolVersions: ["2025-06-18", "2025-11-25", "2026-07-28"] },
            ],
          }),
        at,
      });
      const result = await probeServer(server.url, { allowPrivateHosts: true });
      expect(result.reachable).toBe(true);
      expect(cardQuirks(result.quirks), at).toEqual([]);
      expect(server.cardRequests).toContain(new URL(cardUrl(server.url, at)).pathname);
    }
  });

  it("says where the card's name, version, transport and protocol versions differ from what the server answers", async () => {
    const server = await start({
      card: (url: string) =>
        cardFor(url, {
          name: "com.example/forecast",
          version: "1.0.0",
          remotes: [{ type: "sse", url, supportedProtocolVersions: ["2024-11-05"] }],
          capabilities: { prompts: {} },
        }),
    });
    const result = await probeServer(server.url, { allowPrivateHosts: true });
    expect(result.reachable).toBe(true);
    const at = `server card at ${server.url}/server-card`;
    expect(cardQuirks(result.quirks)).toEqual([
      `${at} names the server \`com.example/forecast\`; the server calls itself \`${CARD_SERVER_INFO.name}\``,
      `${at} says version 1.0.0; the server answers ${CARD_SERVER_INFO.version}`,
      `${at} offers ${server.url} over sse; the server answered over streamable-http`,
      `${at} lists protocol versions 2024-11-05; the server spoke ${result.protocolVersion}`,
      `${at} declares prompts, which the server does not offer`,
      `${at} omits tools, which the server offers`,
    ]);
    // A card that names another endpoint only.
    const elsewhere = await start({ card: cardFor("https://elsewhere.example.com/mcp"), at: "well-known-json" });
    const moved = await probeServer(elsewhere.url, { allowPrivateHosts: true });
    expect(cardQuirks(moved.quirks)).toEqual([
      `server card at ${cardUrl(elsewhere.url, "well-known-json")} lists no remote at ${elsewhere.url}`,
    ]);
  });

  it("records nothing for a server without a card, even one that answers every path with a page", async () => {
    for (const everyPathHtml of [false, true]) {
      const server = await start({ everyPathHtml });
      const result = await probeServer(server.url, { allowPrivateHosts: true });
      expect(result.reachable).toBe(true);
      expect(cardQuirks(result.quirks)).toEqual([]);
      expect(server.cardRequests.sort()).toEqual([
        "/.well-known/mcp/server-card",
        "/.well-known/mcp/server-card.json",
        "/mcp/server-card",
      ]);
    }
  });

  it("says when a card cannot be read", async () => {
    const server = await start({ card: "{ not json" });
    const result = await probeServer(server.url, { allowPrivateHosts: true });
    expect(cardQuirks(result.quirks)).toEqual([`server card at ${server.url}/server-card is not a readable card`]);
  });
});

function cardUrl(serverUrl: string, at: "endpoint" | "well-known-json" | "well-known"): string {
  const origin = new URL(serverUrl).origin;
  return at === "endpoint"
    ? `${serverUrl}/server-card`
    : at === "well-known-json"
      ? `${origin}/.well-known/mcp/server-card.json`
      : `${origin}/.well-known/mcp/server-card`;
}
