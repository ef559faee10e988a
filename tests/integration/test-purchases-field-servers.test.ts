// The site's own test purchases buy from paid servers built with the field's libraries (tests/support/field-servers),
// not only from Agora's kit: each is listed, checked once for real (its paid tool named by its owner where its
// tools/list says nothing), then test-bought with the agent client's purchase code on the local chain through the
// loopback facilitator, on each database. Exactly the price moves from the site's wallet to the server's payee, the
// purchase is recorded as delivered with its transaction, the paid tool ran once and the free tool (which has a side
// effect) was never called. A paid run that fails charges the site nothing.
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletFromKey } from "@agora-mcp/client";
import { eq } from "drizzle-orm";
import { latestProbes } from "@/db/queries/probes";
import { listings, testPurchases } from "@/db/schema";
import type { Db } from "@/db/types";
import { reloadEnv } from "@/lib/env";
import { recordCheck } from "@/lib/listings/checks/drift";
import { insertListing } from "@/lib/listings/write";
import { probeServer } from "@/lib/probe";
import { testPurchase } from "@/lib/test-purchases/run";
import type { TestPurchaseSettings } from "@/lib/test-purchases/settings";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { FIELD_STYLES, startFieldServer, type FieldServer, type FieldStyle } from "../support/field-servers";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

const PRICE = 10_000n; // $0.01
/** Styles whose tools/list says nothing about payment: the owner names the paid tool, as the submit form asks. */
const SILENT: ReadonlySet<FieldStyle> = new Set(["x402-mcp-v2", "jsonrpc-402"]);

let stack: PaymentStack;

beforeAll(async () => {
  stack = await startPaymentStack();
  process.env.CHAIN_RPC_URLS = `eip155:84532=${stack.chain.rpcUrl}`;
  reloadEnv();
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  delete process.env.CHAIN_RPC_URLS;
  reloadEnv();
});

async function fundedSettings(units: bigint): Promise<TestPurchaseSettings> {
  const key = generatePrivateKey();
  await stack.chain.mintUsdc(privateKeyToAccount(key).address, units);
  return {
    wallet: walletFromKey(key),
    budgetUnits: 1_000_000n,
    maxUnits: 100_000n,
    intervalMs: 7 * 86_400_000,
    timeoutMs: 5_000,
    allowPrivateHosts: true,
  };
}

describe.each(drivers())("test purchases from field servers on %s", (driver) => {
  let conn: TestConnection;
  let db: Db;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    db = conn.db;
  });
  afterAll(async () => conn?.close());

  async function listedAndChecked(server: FieldServer, slug: string) {
    const paidTools = SILENT.has(server.style) ? [server.paidTool] : [];
    const listing = await insertListing(db, {
      slug,
      name: slug,
      description: "A paid server built with another library.",
      categories: ["Data"],
      serverUrl: server.url,
      websiteUrl: null,
      status: "approved",
      price: null,
    });
    const probe = await probeServer(server.url, {
      allowPrivateHosts: true,
      paidTools: paidTools.map((name) => ({ name, reason: "owner" as const })),
    });
    const recorded = await recordCheck(db, listing, probe);
    expect(recorded.listing?.verified).toBe(true);
    return listing;
  }

  async function buy(settings: TestPurchaseSettings, listingId: string) {
    const [row] = await db.select().from(listings).where(eq(listings.id, listingId));
    const probe = (await latestProbes(db, [listingId])).get(listingId) ?? null;
    return testPurchase(
      db,
      settings,
      { id: row!.id, name: row!.name, serverUrl: row!.serverUrl, price: row!.price, lastTestedAt: null },
      probe,
    );
  }

  it.each(FIELD_STYLES)(
    "buys from a %s server: the price reaches its payee and the purchase is recorded as delivered",
    async (style) => {
      const payee = stack.freshAddress();
      const server = await startFieldServer(style, {
        facilitatorUrl: stack.facilitator.url,
        payTo: payee,
        units: PRICE,
      });
      try {
        const listing = await listedAndChecked(server, `field-${style}-${driver}`);
        const settings = await fundedSettings(1_000_000n);
        const result = await buy(settings, listing.id);
        expect(result).toMatchObject({ kind: "recorded", outcome: "delivered" });
        expect(await stack.chain.usdcBalance(payee)).toBe(PRICE);
        expect(await stack.chain.usdcBalance(settings.wallet.address)).toBe(1_000_000n - PRICE);
        const [row] = await db.select().from(testPurchases).where(eq(testPurchases.listingId, listing.id));
        expect(row).toMatchObject({
          item: server.paidTool,
          units: PRICE,
          outcome: "delivered",
          money: "paid",
          network: "eip155:84532",
        });
        expect(row!.transaction).toMatch(/^0x[0-9a-f]{64}$/);
        expect(server.counts).toEqual({ paidRuns: 1, freeCalls: 0 });
      } finally {
        await server.close();
      }
    },
  );

  it.each(["cloudflare-agents", "vercel-x402-mcp"] as const)(
    "pays a %s server nothing when its paid tool fails",
    async (style) => {
      const payee = stack.freshAddress();
      const server = await startFieldServer(style, {
        facilitatorUrl: stack.facilitator.url,
        payTo: payee,
        units: PRICE,
      });
      try {
        const listing = await listedAndChecked(server, `field-failing-${style}-${driver}`);
        const settings = await fundedSettings(1_000_000n);
        server.failNext();
        const result = await buy(settings, listing.id);
        expect(result).toMatchObject({ kind: "recorded" });
        expect(result).not.toMatchObject({ outcome: "delivered" });
        expect(await stack.chain.usdcBalance(payee)).toBe(0n);
        expect(await stack.chain.usdcBalance(settings.wallet.address)).toBe(1_000_000n);
        expect(server.counts.freeCalls).toBe(0);
      } finally {
        await server.close();
      }
    },
  );
});
