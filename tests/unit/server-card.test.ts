// Server cards: Agora's own (every listing's, valid against SEP-2127's schema) and a server's own, read by the probe.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListingView } from "@/lib/listings/model";
import { NO_SALES } from "@/db/queries/sales";
import {
  SERVER_CARD_SCHEMA_URL,
  serverCardCatalog,
  serverCardUrl,
  toServerCard,
} from "@/lib/listings/presenters/server-card";
import { toServerResponse } from "@/lib/listings/presenters/server-json";
import { cardDifferences, cardLocations, type Observed } from "@/lib/probe/server-card";
import { reloadEnv } from "@/lib/env";
import { serverCardSchema } from "../support/server-card-schema";

const SITE = "https://agora.test";
const fixtures = path.join(import.meta.dirname, "../fixtures/server-card");
const fixture = (file: string) => JSON.parse(fs.readFileSync(path.join(fixtures, file), "utf8"));

function view(overrides: Partial<ListingView> = {}): ListingView {
  const at = "2026-11-01T00:00:00.000Z";
  return {
    id: "00000000-0000-4000-8000-000000000001",
    slug: "weather-now",
    name: "Weather Now",
    description: "Current weather for any city.",
    categories: ["Data"],
    price: 0.01,
    verified: true,
    serverUrl: "https://weather.example.com/mcp",
    websiteUrl: null,
    createdAt: at,
    updatedAt: at,
    source: "agora",
    upstreamName: null,
    upstreamUrl: null,
    upstreamStatus: null,
    registryName: null,
    probe: {
      checkedAt: at,
      reachable: true,
      verifiable: true,
      latencyMs: 12,
      protocolVersion: "2026-07-28",
      tools: [],
      pricedItems: [],
      paymentMethods: [],
    },
    uptime: { uptimePct: 100, medianLatencyMs: 12, checks: 3 },
    drift: [],
    sales: NO_SALES,
    buyerReviews: { count: 0, average: null, latest: [] },
    testPurchase: null,
    delivery30d: { delivered: 0, failedUncharged: 0, failedCharged: 0 },
    ...overrides,
  };
}

beforeAll(() => {
  process.env.SITE_URL = SITE;
  reloadEnv();
});
afterAll(() => {
  delete process.env.SITE_URL;
  reloadEnv();
});

describe("the vendored SEP-2127 schema", () => {
  it("accepts the extension repository's valid examples and refuses its invalid ones", () => {
    for (const file of ["valid-minimal.json", "valid-templated-remote.json"])
      expect(serverCardSchema.isCard(fixture(file)), file).toBe(true);
    for (const file of ["invalid-bad-name-pattern.json", "invalid-missing-name.json", "invalid-wrong-schema-name.json"])
      expect(serverCardSchema.isCard(fixture(file)), file).toBe(false);
  });
});

describe("a listing's server card", () => {
  it("validates and names the server, its version and endpoint as its /v0.1 entry does", () => {
    const listing = view();
    const card = toServerCard(listing);
    serverCardSchema.assertCard(card);
    const { server } = toServerResponse(listing);
    expect(card).toMatchObject({
      $schema: SERVER_CARD_SCHEMA_URL,
      name: "dev.agora-mcp/weather-now",
      version: server.version,
      title: "Weather Now",
      description: "Current weather for any city.",
      websiteUrl: `${SITE}/marketplace/weather-now`,
      remotes: [
        { type: "streamable-http", url: "https://weather.example.com/mcp", supportedProtocolVersions: ["2026-07-28"] },
      ],
    });
    expect(card._meta["dev.agora-mcp/listing"]).toMatchObject({
      detailUrl: `${SITE}/marketplace/weather-now`,
      registryEntryUrl: `${SITE}/v0.1/servers/dev.agora-mcp%2Fweather-now/versions/latest`,
      price: 0.01,
      verified: true,
    });
    // The /v0.1 entry links the card.
    expect((server._meta["dev.agora-mcp/listing"] as { serverCardUrl: string }).serverCardUrl).toBe(
      `${SITE}/servers/weather-now/server-card`,
    );
    expect(serverCardUrl("weather-now")).toBe(`${SITE}/servers/weather-now/server-card`);
  });

  it("stays valid for a long multi-byte description, a title of markup, an unreached server and an imported name", () => {
    const cards = [
      toServerCard(
        view({
          description: `${"Ünïcödé 🚀 text that goes on ".repeat(8)}and on.`,
          name: "<b>Émoji</b> Überserver 🚀".repeat(8),
        }),
      ),
      toServerCard(view({ probe: null })),
      toServerCard(view({ probe: { ...view().probe!, reachable: false } })),
      toServerCard(view({ registryName: "io.github.topoteretes/cognee", source: "mcp-registry" })),
    ];
    for (const card of cards) serverCardSchema.assertCard(card);
    expect(Array.from(cards[0]!.description).length).toBeLessThanOrEqual(100);
    expect(cards[1]!.remotes[0]).toEqual({ type: "streamable-http", url: "https://weather.example.com/mcp" });
    expect(cards[2]!.remotes[0]!.supportedProtocolVersions).toBeUndefined();
    expect(cards[3]!.name).toBe("io.github.topoteretes/cognee");
  });

  it("is not valid when the schema's rules are broken (the check can fail)", () => {
    const card = toServerCard(view());
    expect(serverCardSchema.isCard({ ...card, description: "x".repeat(101) })).toBe(false);
    expect(serverCardSchema.isCard({ ...card, name: "no-slash" })).toBe(false);
    expect(serverCardSchema.isCard({ ...card, remotes: [{ type: "websocket", url: "wss://x" }] })).toBe(false);
  });

  it("is listed in the catalogue with the AI Catalog's entry shape", () => {
    const catalog = serverCardCatalog([{ slug: "weather-now", name: "Weather Now" }]);
    expect(catalog).toMatchObject({
      specVersion: "1.0",
      entries: [
        {
          identifier: "urn:air:agora.test:mcp:weather-now",
          type: "application/mcp-server-card+json",
          url: `${SITE}/servers/weather-now/server-card`,
          name: "Weather Now",
        },
      ],
    });
  });
});

describe("a server's own card against what it answers", () => {
  const observed: Observed = {
    url: "https://weather.example.com/mcp",
    serverName: "weather",
    serverVersion: "2.0.0",
    transport: "streamable-http",
    protocolVersion: "2026-07-28",
    capabilities: { tools: {} },
  };
  const remote = {
    type: "streamable-http",
    url: "https://weather.example.com/mcp/",
    supportedProtocolVersions: ["2025-11-25", "2026-07-28"],
  };

  it("finds nothing when they agree (the reverse-DNS name's last part is the server's name)", () => {
    expect(
      cardDifferences(
        {
          name: "com.example/weather",
          version: "2.0.0",
          remotes: [remote],
          capabilities: { tools: { listChanged: false } },
        },
        observed,
      ),
    ).toEqual([]);
    expect(cardDifferences({}, observed)).toEqual([]);
  });

  it("names each difference: name, version, transport, protocol version and capabilities", () => {
    const differences = cardDifferences(
      {
        name: "com.example/forecast",
        version: "1.9.0",
        remotes: [{ ...remote, type: "sse", supportedProtocolVersions: ["2025-06-18"] }],
        capabilities: { prompts: {} },
      },
      observed,
    );
    expect(differences).toEqual([
      "names the server `com.example/forecast`; the server calls itself `weather`",
      "says version 1.9.0; the server answers 2.0.0",
      "offers https://weather.example.com/mcp over sse; the server answered over streamable-http",
      "lists protocol versions 2025-06-18; the server spoke 2026-07-28",
      "declares prompts, which the server does not offer",
      "omits tools, which the server offers",
    ]);
    expect(
      cardDifferences({ remotes: [{ type: "streamable-http", url: "https://elsewhere.example.com/mcp" }] }, observed),
    ).toEqual(["lists no remote at https://weather.example.com/mcp"]);
  });

  it("is looked for next to the endpoint, then at the origin's well-known addresses", () => {
    expect(cardLocations("https://weather.example.com/mcp/?x=1")).toEqual([
      "https://weather.example.com/mcp/server-card",
      "https://weather.example.com/.well-known/mcp/server-card.json",
      "https://weather.example.com/.well-known/mcp/server-card",
    ]);
  });
});
