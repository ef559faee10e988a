// Real test purchases for the end-to-end run, made while the database is prepared: a local chain and
// facilitator, the reference server and one that takes the payment and answers an error, each listed, checked and
// bought from with the site's purchase code. The servers stop afterwards; the pages show what was recorded.
import { generatePrivateKey } from "viem/accounts";
import { walletFromKey } from "@agora-mcp/client";
import type { Db } from "@/db/types";
import { reloadEnv } from "@/lib/env";
import { recordCheck } from "@/lib/listings/checks/drift";
import { insertListing } from "@/lib/listings/write";
import { probeServer } from "@/lib/probe";
import { testPurchase } from "@/lib/test-purchases/run";
import { startReferenceServer } from "@/examples/monetized-server/server";
import { startLyingServer } from "../../support/lying-server";
import { startPaymentStack } from "../../support/payment-stack";

export const TEST_PURCHASE_FIXTURES = {
  delivered: { slug: "delivery-tested-weather", name: "Delivery Tested Weather" },
  undelivered: { slug: "takes-money-delivers-nothing", name: "Takes Money Delivers Nothing" },
} as const;

export async function addTestPurchaseFixtures(db: Db): Promise<void> {
  const stack = await startPaymentStack();
  const before = process.env.CHAIN_RPC_URLS;
  process.env.CHAIN_RPC_URLS = `eip155:84532=${stack.chain.rpcUrl}`;
  reloadEnv();
  const reference = await startReferenceServer({
    port: 0,
    walletAddress: stack.freshAddress(),
    facilitatorUrl: stack.facilitator.url,
    name: "delivery-tested",
  });
  const liar = await startLyingServer("no-delivery", {
    facilitatorUrl: stack.facilitator.url,
    payTo: stack.freshAddress(),
  });
  try {
    const key = generatePrivateKey();
    const settings = {
      wallet: walletFromKey(key),
      budgetUnits: 1_000_000n,
      maxUnits: 100_000n,
      intervalMs: 86_400_000,
      timeoutMs: 10_000,
      allowPrivateHosts: true,
    };
    await stack.chain.mintUsdc(settings.wallet.address, 1_000_000n);
    // Only these two: the sample catalogue's reference listings settle through the public facilitator.
    for (const [fixture, url] of [
      [TEST_PURCHASE_FIXTURES.delivered, reference.url],
      [TEST_PURCHASE_FIXTURES.undelivered, liar.url],
    ] as const) {
      const listing = await insertListing(db, {
        ...fixture,
        description: "A paid server Agora has test-bought from.",
        categories: ["Data"],
        serverUrl: url,
        websiteUrl: null,
        status: "approved",
        price: null,
      });
      const { probe } = await recordCheck(db, listing, await probeServer(url, { allowPrivateHosts: true }));
      const result = await testPurchase(
        db,
        settings,
        { id: listing.id, name: listing.name, serverUrl: url, price: listing.price, lastTestedAt: null },
        probe,
      );
      console.log(`test purchase from ${fixture.slug}: ${result.kind === "recorded" ? result.outcome : result.reason}`);
    }
  } finally {
    await Promise.all([reference.close(), liar.close()]);
    await stack.stop();
    if (before === undefined) delete process.env.CHAIN_RPC_URLS;
    else process.env.CHAIN_RPC_URLS = before;
    reloadEnv();
  }
}
