// A listed server that raises its price past the review factor (PRICE_RISE_REVIEW_FACTOR, 2× by default) or names
// another payee does not get its new terms shown: every surface (detail page data, /api/mcp-agents, /v0.1, MCP, and
// discovery, which lists only Verified listings) keeps the approved price and payee, the listing loses Verified, and
// the change waits on the review queue as a pending edit; approving it shows the new terms. Real MonetizedMCP
// servers on loopback whose terms change between checks.
import { slugify } from "@/lib/listings/slug";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listAgents } from "@/app/api/mcp-agents/route";
import { GET as oneAgent } from "@/app/api/mcp-agents/[id]/route";
import { DELETE, GET, OPTIONS, POST } from "@/app/api/mcp/route";
import { GET as listV01 } from "@/app/v0.1/servers/route";
import { decideListingEdit, listPendingEdits } from "@/db/queries/listing-edits";
import { latestPaymentTerms } from "@/db/queries/sales";
import { insertPasswordUser } from "@/db/queries/users";
import { listings } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { findListingView } from "@/lib/listings/lookup";
import { loadReviewQueue } from "@/lib/listings/review-queue";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPricedServer } from "../support/priced-server";
import { approvedListing as approvedListingOf } from "../support/approved-listing";
import { serveRoute } from "../support/route-server";

const WALLET_A = "0x1111111111111111111111111111111111111111";
const WALLET_B = "0x2222222222222222222222222222222222222222";
const loopback = { allowPrivateHosts: true };

type Facts = {
  price: number | null;
  verified: boolean;
  pricedItems: { name: string; priceUsd: number }[];
  paymentMethods: { payTo: string | null }[];
};

describe.each(drivers())("price rises and payee changes wait for review on %s", (driver) => {
  let conn: TestConnection;
  let registry: Awaited<ReturnType<typeof serveRoute>>;
  let client: Client;
  let reviewerId: string;

  beforeAll(async () => {
    process.env.RATE_LIMIT_DISABLED = "1";
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    reviewerId = (
      await insertPasswordUser(conn.db, { email: `held-${driver}@example.com`, name: "Reviewer", passwordHash: "x" })
    ).id;
    registry = await serveRoute({ POST, GET, DELETE, OPTIONS });
    client = new Client({ name: "held-terms-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${registry.url}/api/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await registry?.close();
    await conn?.close();
    delete process.env.RATE_LIMIT_DISABLED;
    delete process.env.PRICE_RISE_REVIEW_FACTOR;
    reloadEnv();
  });

  const approvedListing = (name: string, url: string) => approvedListingOf(conn.db, reviewerId, name, url);

  /** Price, badge, priced items and payees as each surface serves them: all must agree. */
  async function served(id: string, name: string) {
    const listed = (await (
      await listAgents(new Request(`http://localhost/api/mcp-agents?q=${encodeURIComponent(name)}`))
    ).json()) as ({ id: string } & Facts)[];
    const one = (await (
      await oneAgent(new Request(`http://localhost/api/mcp-agents/${id}`), { params: Promise.resolve({ id }) })
    ).json()) as Facts;
    // /v0.1's search is the registry's: a substring of server.name (dev.agora-mcp/<slug> here).
    const v01 = (await (
      await listV01(new Request(`http://localhost/v0.1/servers?search=${encodeURIComponent(slugify(name))}`))
    ).json()) as { servers: { server: { _meta: Record<string, Facts & { id: string }> } }[] };
    const meta = v01.servers.map((s) => Object.values(s.server._meta).find((m) => m.id === id)).find(Boolean);
    const mcp = ((await client.callTool({ name: "get_server", arguments: { id } })) as CallToolResult)
      .structuredContent as Facts;
    const view = (await findListingView(conn.db, id))!;
    const detail: Facts = {
      price: view.price,
      verified: view.verified,
      pricedItems: view.probe!.pricedItems.map((i) => ({ name: i.name, priceUsd: i.amount })),
      paymentMethods: view.probe!.paymentMethods.map((m) => ({ payTo: m.walletAddress })),
    };
    const shape = (f: Facts | undefined) =>
      f && {
        price: f.price,
        verified: f.verified,
        items: f.pricedItems.map((i) => `${i.name} ${i.priceUsd}`),
        payees: f.paymentMethods.map((m) => m.payTo?.toLowerCase()),
      };
    const surfaces = {
      api: shape(listed.find((l) => l.id === id)),
      apiOne: shape(one),
      v01: shape(meta),
      mcp: shape(mcp),
      detail: shape(detail),
    };
    const first = surfaces.detail;
    for (const [surface, seen] of Object.entries(surfaces)) expect(seen, surface).toEqual(first);
    return first!;
  }

  const queued = async (id: string) => (await listPendingEdits(conn.db)).find((e) => e.listingId === id);

  it("keeps a 999× rise off every surface, without Verified, until a reviewer approves it; then shows the new price", async () => {
    const server = await startPricedServer({
      items: [{ name: "Forecast", amount: 0.01 }],
      wallet: WALLET_A,
      extraTool: false,
    });
    try {
      const id = await approvedListing("Steep Riser", server.url);
      expect(await served(id, "Steep Riser")).toEqual({
        price: 0.01,
        verified: true,
        items: ["Forecast 0.01"],
        payees: [WALLET_A],
      });

      server.state.items = [{ name: "Forecast", amount: 9.99 }];
      const probed = await checkListing(conn.db, id, loopback);
      expect(probed?.drift).toEqual([
        { kind: "price", subject: "Forecast", approved: "0.01 USDC", found: "9.99 USDC", held: true },
      ]);
      expect(probed?.listing).toEqual({ price: 0.01, verified: false });
      expect(await served(id, "Steep Riser")).toEqual({
        price: 0.01,
        verified: false,
        items: ["Forecast 0.01"],
        payees: [WALLET_A],
      });
      // Every surface tells buyers what the server now asks, held for review.
      const mcp = (await client.callTool({ name: "get_server", arguments: { id } })) as CallToolResult;
      expect((mcp.structuredContent as { drift: unknown[] }).drift).toEqual([
        {
          kind: "price",
          subject: "Forecast",
          approved: "0.01 USDC",
          found: "9.99 USDC",
          held: true,
          detectedAt: expect.any(String),
        },
      ]);
      expect((mcp.content[0] as { text: string }).text).toMatch(
        /Price changed on \d{4}-\d{2}-\d{2}: Forecast 0\.01 USDC → 9\.99 USDC \(held for review\)/,
      );
      // Still listed, and the check itself counts (the server answered just now).
      expect(
        (await conn.db.select({ status: listings.status }).from(listings).where(eq(listings.id, id)))[0]!.status,
      ).toBe("approved");
      expect((await findListingView(conn.db, id))!.probe).toMatchObject({
        reachable: true,
        checkedAt: probed!.probe.checkedAt.toISOString(),
      });

      // Waiting on the review queue with the check that found it; the same offer found again keeps its revision.
      const waiting = await queued(id);
      expect(waiting).toMatchObject({ revision: 2, check: { url: server.url, lowestPrice: 9.99 } });
      expect(waiting!.proposed).toEqual(waiting!.current);
      // The reviewer (and an owner, on /account) read it as a change of the listing's terms, not "changes nothing".
      const [entry] = (await loadReviewQueue(conn.db)).edits.filter((e) => e.listingId === id);
      expect(entry!.changes).toEqual([
        { field: "Prices", before: "Forecast: 0.01 USDC", after: "Forecast: 9.99 USDC" },
      ]);
      await checkListing(conn.db, id, loopback);
      expect((await queued(id))?.revision).toBe(2);
      expect((await served(id, "Steep Riser")).price).toBe(0.01);

      expect(
        await decideListingEdit(conn.db, id, reviewerId, { decision: "approved", reason: null, revision: 2 }),
      ).toMatchObject({ ok: true });
      expect(await queued(id)).toBeUndefined();
      expect((await served(id, "Steep Riser")).items).toEqual(["Forecast 9.99"]);
      expect((await served(id, "Steep Riser")).price).toBe(9.99);
      // The check that follows the approval finds the approved terms: no new change, the badge is back.
      const again = await checkListing(conn.db, id, loopback);
      expect(again?.drift).toEqual([]);
      expect(await served(id, "Steep Riser")).toEqual({
        price: 9.99,
        verified: true,
        items: ["Forecast 9.99"],
        payees: [WALLET_A],
      });
    } finally {
      await server.close();
    }
  });

  it("applies a cheaper price and a rise within the factor at once, keeping Verified", async () => {
    const server = await startPricedServer({
      items: [{ name: "Forecast", amount: 0.1 }],
      wallet: WALLET_A,
      extraTool: false,
    });
    try {
      const id = await approvedListing("Gentle Mover", server.url);
      server.state.items = [{ name: "Forecast", amount: 0.05 }];
      expect((await checkListing(conn.db, id, loopback))?.listing).toEqual({ price: 0.05, verified: true });
      server.state.items = [{ name: "Forecast", amount: 0.2 }]; // exactly 2× the approved 0.10
      expect((await checkListing(conn.db, id, loopback))?.listing).toEqual({ price: 0.2, verified: true });
      expect(await served(id, "Gentle Mover")).toEqual({
        price: 0.2,
        verified: true,
        items: ["Forecast 0.2"],
        payees: [WALLET_A],
      });
      expect(await queued(id)).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it("keeps the approved payee on every surface while a new one waits for review, and names no new payee to the sales index", async () => {
    const server = await startPricedServer({
      items: [{ name: "Forecast", amount: 0.01 }],
      wallet: WALLET_A,
      extraTool: false,
    });
    try {
      const id = await approvedListing("Payee Switcher", server.url);
      server.state.wallet = WALLET_B;
      const probed = await checkListing(conn.db, id, loopback);
      expect(probed?.drift).toEqual([
        { kind: "wallet", subject: "USDC_BASE_SEPOLIA", approved: WALLET_A, found: WALLET_B, held: true },
      ]);
      expect(await served(id, "Payee Switcher")).toEqual({
        price: 0.01,
        verified: false,
        items: ["Forecast 0.01"],
        payees: [WALLET_A],
      });
      const watched = (await latestPaymentTerms(conn.db)).find((t) => t.listingId === id);
      expect(watched?.paymentMethods).toEqual([{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: WALLET_A }]);
      const waiting = await queued(id);
      expect(waiting?.check?.paymentMethods).toEqual([{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: WALLET_B }]);
      const [entry] = (await loadReviewQueue(conn.db)).edits.filter((e) => e.listingId === id);
      expect(entry!.changes).toEqual([
        { field: "Payee wallets", before: `USDC_BASE_SEPOLIA → ${WALLET_A}`, after: `USDC_BASE_SEPOLIA → ${WALLET_B}` },
      ]);

      expect(
        (
          await decideListingEdit(conn.db, id, reviewerId, {
            decision: "approved",
            reason: null,
            revision: waiting!.revision,
          })
        ).ok,
      ).toBe(true);
      expect((await served(id, "Payee Switcher")).payees).toEqual([WALLET_B]);
      expect((await checkListing(conn.db, id, loopback))?.drift).toEqual([]);
      expect(await served(id, "Payee Switcher")).toEqual({
        price: 0.01,
        verified: true,
        items: ["Forecast 0.01"],
        payees: [WALLET_B],
      });
    } finally {
      await server.close();
    }
  });

  it("takes its factor from PRICE_RISE_REVIEW_FACTOR", async () => {
    process.env.PRICE_RISE_REVIEW_FACTOR = "1000";
    reloadEnv();
    const server = await startPricedServer({
      items: [{ name: "Forecast", amount: 0.01 }],
      wallet: WALLET_A,
      extraTool: false,
    });
    try {
      const id = await approvedListing("Trusted Riser", server.url);
      server.state.items = [{ name: "Forecast", amount: 9.99 }];
      expect((await checkListing(conn.db, id, loopback))?.listing).toEqual({ price: 9.99, verified: true });
      expect(await queued(id)).toBeUndefined();
    } finally {
      delete process.env.PRICE_RISE_REVIEW_FACTOR;
      reloadEnv();
      await server.close();
    }
  });
});
