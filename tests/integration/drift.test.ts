// Drift against what a reviewer approved, on a real MonetizedMCP server on loopback whose price, wallet and
// tools change between probes: both values are kept, a new wallet is held for review (tests/integration/held-terms.test.ts
// has the rest of that), and agents see the change in get_server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { findListingView } from "@/lib/listings/lookup";
import { decideListingEdit, listPendingEdits } from "@/db/queries/listing-edits";
import { insertPasswordUser } from "@/db/queries/users";
import { listingDrift, listings } from "@/db/schema";
import { DELETE, GET, OPTIONS, POST } from "@/app/api/mcp/route";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPricedServer } from "../support/priced-server";
import { approvedListing as approvedListingOf } from "../support/approved-listing";
import { serveRoute } from "../support/route-server";

const WALLET_A = "0x1111111111111111111111111111111111111111";
const WALLET_B = "0x2222222222222222222222222222222222222222";
const loopback = { allowPrivateHosts: true };

describe.each(drivers())("drift on %s", (driver) => {
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
      await insertPasswordUser(conn.db, {
        email: `reviewer-${driver}@example.com`,
        name: "Reviewer",
        passwordHash: "x",
      })
    ).id;
    registry = await serveRoute({ POST, GET, DELETE, OPTIONS });
    client = new Client({ name: "drift-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${registry.url}/api/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await registry?.close();
    await conn?.close();
    delete process.env.RATE_LIMIT_DISABLED;
    reloadEnv();
  });

  const approvedListing = (name: string, url: string) => approvedListingOf(conn.db, reviewerId, name, url);
  const getServer = async (id: string) =>
    (await client.callTool({ name: "get_server", arguments: { id } })) as CallToolResult;

  it("records a price change with both values, keeps the badge, and shows it to agents in get_server", async () => {
    const server = await startPricedServer({
      items: [
        { name: "Forecast", amount: 0.01 },
        { name: "Radar", amount: 0.1 },
      ],
      wallet: WALLET_A,
      extraTool: false,
    });
    try {
      const id = await approvedListing("Price Mover", server.url);
      expect((await findListingView(conn.db, id))!.drift).toEqual([]);

      server.state.items = [
        { name: "Forecast", amount: 0.02 },
        { name: "Radar", amount: 0.1 },
      ];
      const probed = await checkListing(conn.db, id, loopback);
      expect(probed?.drift).toEqual([
        { kind: "price", subject: "Forecast", approved: "0.01 USDC", found: "0.02 USDC" },
      ]);
      expect(probed?.listing).toEqual({ price: 0.02, verified: true });
      // The same change found again is not recorded twice.
      await checkListing(conn.db, id, loopback);
      expect(await conn.db.select().from(listingDrift).where(eq(listingDrift.listingId, id))).toHaveLength(1);

      const result = await getServer(id);
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toMatchObject({
        verified: true,
        price: 0.02,
        drift: [
          {
            kind: "price",
            subject: "Forecast",
            approved: "0.01 USDC",
            found: "0.02 USDC",
            held: false,
            detectedAt: expect.any(String),
          },
        ],
      });
      expect((result.content[0] as { text: string }).text).toMatch(
        /Price changed on \d{4}-\d{2}-\d{2}: Forecast 0\.01 USDC → 0\.02 USDC/,
      );
    } finally {
      await server.close();
    }
  });

  it("holds a changed payee wallet for review: listed with the approved wallet, without its badge, until approved", async () => {
    const server = await startPricedServer({
      items: [{ name: "Forecast", amount: 0.01 }],
      wallet: WALLET_A,
      extraTool: false,
    });
    try {
      const id = await approvedListing("Wallet Switcher", server.url);
      server.state.wallet = WALLET_B;
      const probed = await checkListing(conn.db, id, loopback);
      expect(probed?.drift).toEqual([
        { kind: "wallet", subject: "USDC_BASE_SEPOLIA", approved: WALLET_A, found: WALLET_B, held: true },
      ]);
      expect(probed?.listing?.verified).toBe(false);
      const [row] = await conn.db
        .select({ status: listings.status, verified: listings.verified })
        .from(listings)
        .where(eq(listings.id, id));
      expect(row).toEqual({ status: "approved", verified: false });
      expect((await findListingView(conn.db, id))!.probe?.paymentMethods).toEqual([
        { paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: WALLET_A },
      ]);
      expect((await getServer(id)).structuredContent).toMatchObject({
        verified: false,
        paymentMethods: [{ payTo: WALLET_A }],
      });

      // A reviewer who approves the held change approves the new wallet: no drift afterwards, the badge returns.
      const [edit] = (await listPendingEdits(conn.db)).filter((e) => e.listingId === id);
      expect(
        (
          await decideListingEdit(conn.db, id, reviewerId, {
            decision: "approved",
            reason: null,
            revision: edit!.revision,
          })
        ).ok,
      ).toBe(true);
      const again = await checkListing(conn.db, id, loopback);
      expect(again?.drift).toEqual([]);
      expect(again?.listing?.verified).toBe(true);
      expect((await findListingView(conn.db, id))!.drift).toEqual([
        {
          kind: "wallet",
          subject: "USDC_BASE_SEPOLIA",
          approved: WALLET_A,
          found: WALLET_B,
          held: true,
          detectedAt: expect.any(String),
        },
      ]);
    } finally {
      await server.close();
    }
  });

  it("records a changed tool set without taking the badge", async () => {
    const server = await startPricedServer({
      items: [{ name: "Forecast", amount: 0.01 }],
      wallet: WALLET_A,
      extraTool: false,
    });
    try {
      const id = await approvedListing("Tool Grower", server.url);
      server.state.extraTool = true;
      const probed = await checkListing(conn.db, id, loopback);
      expect(probed?.drift).toEqual([
        {
          kind: "tools",
          subject: "",
          approved: "make-purchase, payment-methods, price-listing",
          found: "bonus, make-purchase, payment-methods, price-listing",
        },
      ]);
      expect(probed?.listing?.verified).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("does not take a server that stopped answering for a changed one", async () => {
    const server = await startPricedServer({
      items: [{ name: "Forecast", amount: 0.01 }],
      wallet: WALLET_A,
      extraTool: false,
    });
    const id = await approvedListing("Goes Quiet", server.url);
    await server.close();
    const probed = await checkListing(conn.db, id, { ...loopback, timeoutMs: 2_000 });
    expect(probed?.drift).toEqual([]);
    expect(probed?.listing?.verified).toBe(false);
    const [row] = await conn.db.select({ status: listings.status }).from(listings).where(eq(listings.id, id));
    expect(row!.status).toBe("approved");
  });
});
