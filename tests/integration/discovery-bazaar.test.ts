// x402's own Bazaar client (@x402/extensions' withBazaar) searches and lists Agora over
// real HTTP on loopback, filters included, with the same filters and the same 400s on both endpoints; and every entry
// carries its listing's usage as Coinbase's Bazaar gives it (`quality`) with Agora's own evidence under its key,
// while search ranks equally relevant listings by that usage. Listings are probed for real; sales are stored through
// the sales indexer's own write (applySalesRange: raw rows and roll-ups in one transaction), as a run would store them.
import { HTTPFacilitatorClient } from "@x402/core/http";
import { withBazaar } from "@x402/extensions/bazaar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { GET as RESOURCES } from "@/app/discovery/resources/route";
import { GET as SEARCH } from "@/app/discovery/search/route";
import { GET as MARKETPLACE } from "@/app/api/mcp-agents/route";
import { applySalesRange, type NewSale } from "@/db/queries/sales";
import { buyerReviews } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { serveRoute } from "../support/route-server";
import { discoveryResourcesResponse, discoverySearchResponse } from "../support/x402-discovery";

const WALLET_A = "0xAAaa000000000000000000000000000000000001";
const WALLET_B = "0xbBbB000000000000000000000000000000000002";
const USDC_SEPOLIA = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const AGORA_KEY = "dev.agora-mcp/listing";
const DAY_MS = 86_400_000;

type Entry = {
  resource: string;
  accepts: { amount: string; payTo: string }[];
  quality?: Record<string, unknown>;
  metadata?: unknown;
  extensions?: unknown;
};
const slug = (r: Entry) => (r.metadata as { slug: string }).slug;
const tool = (r: Entry) =>
  (r.extensions as { bazaar: { info: { input: { toolName: string } } } }).bazaar.info.input.toolName;

/** Both discovery routes at one loopback origin, as a facilitator serves them. */
function serveDiscovery() {
  return serveRoute({
    GET: (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/discovery/search") return SEARCH(request);
      if (path === "/discovery/resources") return RESOURCES(request);
      return new Response(null, { status: 404 });
    },
  });
}

let n = 0;
/** A sale as the indexer stores it: one Transfer log of a transaction, paid by `payer` to `payee` at `at`. */
function sale(listingId: string, payer: string, payee: string, at: Date): NewSale {
  n += 1;
  const hex = n.toString(16).padStart(64, "0");
  return {
    listingId,
    network: BASE_SEPOLIA.caip2,
    txHash: `0x${hex}`,
    logIndex: 0,
    blockNumber: BigInt(1000 + n),
    blockHash: `0x${"b".repeat(60)}${hex.slice(-4)}`,
    blockTime: at,
    payer,
    payee,
    amount: 10_000n,
    kind: "exact",
    askedUnits: 10_000n,
  };
}
const buyer = (i: number) => `0x${"c".repeat(38)}${i.toString(16).padStart(2, "0")}`;

describe.each(drivers())("x402 Bazaar client against Agora's discovery on %s", (driver) => {
  let conn: TestConnection;
  let origin: { url: string; close: () => Promise<void> };
  let bazaar: ReturnType<typeof withBazaar<HTTPFacilitatorClient>>["extensions"]["bazaar"];
  const servers: ReferenceServer[] = [];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    process.env.SITE_URL = "https://agora.test";
    process.env.PROBE_ALLOW_PRIVATE_HOSTS = "true";
    process.env.RATE_LIMIT_DISABLED = "1";
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    const weather = await startReferenceServer({ port: 0, walletAddress: WALLET_A });
    const studio = await startReferenceServer({ port: 0, walletAddress: WALLET_B });
    servers.push(weather, studio);
    // Two listings equally relevant to "reference" (both names start with it): without usage, the name decides.
    for (const [name, description, server] of [
      ["Reference Weather", "Forecasts and current weather for any city.", weather],
      ["Reference Studio", "Logos and market reports, also the weather.", studio],
    ] as const) {
      const { id } = await insertListing(conn.db, {
        name,
        description,
        categories: ["Data"],
        serverUrl: server.url,
        status: "approved",
      });
      ids[name] = id;
      await checkListing(conn.db, id, { allowPrivateHosts: true });
    }
    origin = await serveDiscovery();
    bazaar = withBazaar(new HTTPFacilitatorClient({ url: origin.url })).extensions.bazaar;
  });
  afterAll(async () => {
    await origin?.close();
    for (const server of servers) await server.close();
    await conn?.close();
    for (const name of ["SITE_URL", "PROBE_ALLOW_PRIVATE_HOSTS", "RATE_LIMIT_DISABLED"]) delete process.env[name];
    reloadEnv();
  });

  it("searches with x402's own client, every Bazaar filter sent, and reads `pagination.limit`", async () => {
    const all = await bazaar.search({ query: "weather" });
    expect(all.resources.map((r) => slug(r as Entry))).toEqual([
      "reference-weather",
      "reference-weather",
      "reference-weather",
      "reference-studio",
      "reference-studio",
      "reference-studio",
    ]);
    expect(all.pagination).toEqual({ limit: 10, cursor: null });

    const filtered = await bazaar.search({
      query: "weather",
      type: "mcp",
      scheme: "exact",
      network: "eip155:84532",
      extensions: "bazaar",
      payTo: WALLET_B.toLowerCase(),
      limit: 2,
    });
    expect(filtered.resources.map((r) => [slug(r as Entry), r.accepts[0]!.payTo])).toEqual([
      ["reference-studio", WALLET_B],
      ["reference-studio", WALLET_B],
    ]);
    expect(filtered.pagination).toEqual({ limit: 2, cursor: expect.any(String) });
    const rest = await bazaar.search({
      query: "weather",
      payTo: WALLET_B,
      limit: 2,
      cursor: filtered.pagination!.cursor!,
    });
    expect(rest.resources.map((r) => tool(r as Entry))).toHaveLength(1);
    expect(rest.pagination?.cursor).toBeNull();
    // The version 1 name of the network is the same filter; a filter no entry meets finds nothing.
    expect((await bazaar.search({ query: "weather", network: "base-sepolia" })).resources).toHaveLength(6);
    for (const filter of [
      { network: "eip155:8453" },
      { type: "http" },
      { scheme: "upto" },
      { extensions: "sign-in-with-x" },
      { payTo: `0x${"9".repeat(40)}` },
    ]) {
      expect((await bazaar.search({ query: "weather", ...filter })).resources, JSON.stringify(filter)).toEqual([]);
    }
  });

  it("lists with the same client and filters, and both endpoints refuse a malformed filter with the same 400", async () => {
    const listed = await bazaar.listResources({
      type: "mcp",
      payTo: WALLET_A,
      network: "base-sepolia",
      scheme: "exact",
      extensions: "bazaar",
      limit: 5,
    });
    expect(listed.items).toHaveLength(3);
    expect(listed.pagination).toEqual({ limit: 5, offset: 0, total: 3 });
    for (const [query, message] of [
      ["payTo=alice", "payTo must be an EVM address: 0x and 40 hex digits."],
      [
        "network=eip155:84532;drop",
        "network must be a CAIP-2 id such as eip155:84532, or a name such as base-sepolia.",
      ],
      [
        "network=notanetwork",
        'network "notanetwork" names no network: give a CAIP-2 id such as eip155:84532 (an EVM chain\'s is eip155:<chain id>) or an x402 version 1 name such as base-sepolia.',
      ],
      ["limit=ten", "limit must be a number."],
      ["scheme=%3Cb%3E", "scheme must be a short identifier, e.g. exact."],
      ["extensions=a%20b", "extensions must be a short identifier, e.g. bazaar."],
      ["maxUsdPrice=-1", "maxUsdPrice must be a price in US dollars with at most 6 decimals, e.g. 0.05."],
      ["maxUsdPrice=0.0000001", "maxUsdPrice must be a price in US dollars with at most 6 decimals, e.g. 0.05."],
      ["asset=usdc", "asset must be an EVM address: 0x and 40 hex digits."],
    ]) {
      for (const path of ["/discovery/search?query=weather&", "/discovery/resources?"]) {
        const res = await fetch(`${origin.url}${path}${query}`);
        expect(res.status, `${path}${query}`).toBe(400);
        expect(await res.json()).toMatchObject({ error: message });
      }
    }
    // The client throws on a 400, as it does for any refusal.
    await expect(bazaar.search({ query: "weather", payTo: "alice" })).rejects.toThrow(/400/);
  });

  it("filters by maximum price (exact units) and asset on both endpoints, and names a filter it cannot apply", async () => {
    const amounts = async (path: string) => {
      const res = await fetch(`${origin.url}${path}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items?: Entry[]; resources?: Entry[]; unappliedFilters?: string[] };
      return {
        amounts: (body.items ?? body.resources ?? []).map((r) => Number(r.accepts[0]!.amount)).sort((a, b) => a - b),
        unapplied: body.unappliedFilters,
      };
    };
    // The reference server's tools cost $0.01, $0.25 and $0.10 (10,000, 250,000 and 100,000 units of USDC).
    for (const path of [
      "/discovery/resources?payTo=" + WALLET_A + "&",
      "/discovery/search?query=weather&payTo=" + WALLET_A + "&",
    ]) {
      expect((await amounts(`${path}maxUsdPrice=0.10`)).amounts).toEqual([10_000, 100_000]);
      expect((await amounts(`${path}maxUsdPrice=0.099999`)).amounts).toEqual([10_000]);
      expect((await amounts(`${path}maxUsdPrice=0`)).amounts).toEqual([]);
      expect((await amounts(`${path}asset=${USDC_SEPOLIA.toLowerCase()}`)).amounts).toHaveLength(3);
      expect((await amounts(`${path}asset=0x${"1".repeat(40)}`)).amounts).toEqual([]);
      // Unknown to Agora: neither refused nor silently dropped.
      const unknown = await amounts(`${path}resourceUrl=example.com&sort=cheapest`);
      expect(unknown.amounts).toHaveLength(3);
      expect(unknown.unapplied).toEqual(["resourceUrl", "sort"]);
      expect((await amounts(path)).unapplied).toBeUndefined();
    }
  });

  it("gives every entry its listing's usage as `quality` and Agora's evidence under Agora's key; search ranks usage among equals", async () => {
    const order = async (query: string) => [
      ...new Set(
        discoverySearchResponse
          .parse(await (await fetch(`${origin.url}/discovery/search?query=${query}&limit=50`)).json())
          .resources.map((r) => slug(r as Entry)),
      ),
    ];
    // The marketplace's default order (no text: popular) as its JSON list gives it.
    const marketplace = async () =>
      ((await (await MARKETPLACE(new Request("http://localhost/api/mcp-agents"))).json()) as { name: string }[]).map(
        (a) => a.name,
      );
    const before = discoverySearchResponse.parse(
      await (await fetch(`${origin.url}/discovery/search?query=reference&limit=50`)).json(),
    );
    expect([...new Set(before.resources.map((r) => slug(r as Entry)))]).toEqual([
      "reference-studio",
      "reference-weather",
    ]);
    expect(await order("")).toEqual(["reference-studio", "reference-weather"]);
    expect(await marketplace()).toEqual(["Reference Studio", "Reference Weather"]);
    expect(before.resources[0]!.quality).toMatchObject({
      l30DaysTotalCalls: 0,
      l30DaysUniquePayers: 0,
      lastCalledAt: null,
    });

    // Reference Weather: seven paid calls by three wallets in the last 30 days, and one older sale by a fourth.
    const now = Date.now();
    const weather = ids["Reference Weather"]!;
    const recent = [1, 1, 1, 1, 1, 2, 3].map((b, i) =>
      sale(weather, buyer(b), WALLET_A, new Date(now - (i + 1) * 3_600_000)),
    );
    const old = sale(weather, buyer(4), WALLET_A, new Date(now - 40 * DAY_MS));
    await applySalesRange(conn.db, BASE_SEPOLIA.caip2, { remove: [], add: [...recent, old], cursor: 2000n });
    // Two visible buyer reviews (5 and 4 stars) and one an admin hid.
    const review = (s: NewSale, rating: number, hidden = false) => ({
      listingId: weather,
      chainId: BASE_SEPOLIA.chainId,
      txHash: s.txHash,
      logIndex: 0,
      payer: s.payer,
      payee: s.payee,
      amount: "10000",
      blockNumber: s.blockNumber,
      paidAt: s.blockTime,
      rating,
      text: "Good forecasts.",
      textHash: `0x${"d".repeat(64)}`,
      signature: "0x00",
      signedAt: s.blockTime,
      ...(hidden ? { hiddenAt: new Date() } : {}),
    });
    await conn.db
      .insert(buyerReviews)
      .values([review(recent[0]!, 5), review(recent[5]!, 4), review(recent[6]!, 1, true)]);

    const listed = discoveryResourcesResponse.parse(
      await (await fetch(`${origin.url}/discovery/resources?payTo=${WALLET_A}`)).json(),
    );
    const searched = discoverySearchResponse.parse(
      await (await fetch(`${origin.url}/discovery/search?query=reference&limit=50`)).json(),
    );
    for (const entry of [
      ...listed.items,
      ...searched.resources.filter((r) => slug(r as Entry) === "reference-weather"),
    ]) {
      expect(entry.quality).toEqual({
        l30DaysTotalCalls: 7,
        l30DaysUniquePayers: 3,
        lastCalledAt: recent[0]!.blockTime.toISOString(),
        [AGORA_KEY]: {
          verified: true,
          lastCheckedAt: entry.lastUpdated,
          deliveryTested: null,
          buyerRating: { count: 2, averageStars: 4.5 },
          // No test purchases here: all 0. Every entry says how it is paid.
          delivery30d: { delivered: 0, failedUncharged: 0, failedCharged: 0 },
          schemes: ["exact"],
        },
      });
    }
    // Equal relevance, and now real usage: the listing people pay for comes first, in search, in discovery without
    // text, and in the marketplace's default order.
    expect([...new Set(searched.resources.map((r) => slug(r as Entry)))]).toEqual([
      "reference-weather",
      "reference-studio",
    ]);
    expect(await order("")).toEqual(["reference-weather", "reference-studio"]);
    expect(await marketplace()).toEqual(["Reference Weather", "Reference Studio"]);
  });
});
