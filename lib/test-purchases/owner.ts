// What an owner and the admins see of Agora's test purchases: each listing's latest one, the items it could buy
// (for the owner's exclusions), and the wallet's state.
import { formatUsd } from "@agora-mcp/protocol";
import { latestProbes } from "@/db/queries/probes";
import {
  excludedItems,
  latestTestPurchases,
  setItemExcluded,
  spentToday,
  undeliveredListings,
  type UndeliveredListing,
} from "@/db/queries/test-purchases";

export { undeliveredListings, type UndeliveredListing };
import type { Db } from "@/db/types";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { findOwnListing } from "@/lib/listings/owned";
import { testPurchaseWallet } from "./settings";
import { siteChainReader } from "./chain";
import { toTestPurchaseView, type TestPurchaseView } from "@/lib/listings/test-purchase-view";
import { chainReader } from "@/lib/chain/reader";
import { findNetwork, usdToUnits, type PricedItem } from "@agora-mcp/protocol";

export type OwnerTestPurchases = {
  listingId: string;
  name: string;
  latest: TestPurchaseView | null;
  items: { key: string; name: string; priceUsd: string; excluded: boolean }[];
};

function itemKey(item: PricedItem): string {
  return item.toolName && item.x402Requirements ? item.toolName : (item.id ?? item.name);
}

function itemPrice(item: PricedItem): string {
  try {
    return formatUsd(item.units ?? usdToUnits(item.amount));
  } catch {
    return `$${item.amount}`;
  }
}

/** For each of the owner's listings: the latest test purchase and the priced items its latest check read. */
export async function ownerTestPurchases(
  db: Db,
  listings: { id: string; name: string }[],
): Promise<OwnerTestPurchases[]> {
  const ids = listings.map((l) => l.id);
  const [latest, probes] = await Promise.all([latestTestPurchases(db, ids), latestProbes(db, ids)]);
  return Promise.all(
    listings.map(async (l) => {
      const excluded = await excludedItems(db, l.id);
      const row = latest.get(l.id);
      // The MonetizedMCP items (an x402-paid tool selling the same item is excluded with it).
      const items = (probes.get(l.id)?.pricedItems ?? []).filter((i) => !(i.toolName && i.x402Requirements));
      return {
        listingId: l.id,
        name: l.name,
        latest: row ? toTestPurchaseView(row) : null,
        items: items.map((i) => ({
          key: itemKey(i),
          name: i.name,
          priceUsd: itemPrice(i),
          excluded: excluded.has(itemKey(i)),
        })),
      };
    }),
  );
}

/** The owner's choice for one item; 404 for a listing that is not theirs. */
export async function chooseItemExclusion(
  db: Db,
  ownerId: string,
  input: { listingId: string; item: string; excluded: boolean },
): Promise<void> {
  const listing = await findOwnListing(db, ownerId, input.listingId);
  if (!listing) throw new ApiError(404, "No such server of yours.");
  await setItemExcluded(db, listing.id, input.item, input.excluded);
}

export type WalletStatus = {
  address: string | null;
  network: string | null;
  balanceUsd: string | null;
  spentTodayUsd: string;
  budgetUsd: string;
  maxPerPurchaseUsd: string;
  on: boolean;
};

/** The test-purchase wallet for the admin page: its address, USDC balance and today's spending against the budget. */
export async function walletStatus(db: Db): Promise<WalletStatus> {
  const e = env();
  const wallet = testPurchaseWallet();
  const budget = usdToUnits(e.TEST_PURCHASE_DAILY_BUDGET);
  let balanceUsd: string | null = null;
  let networkLabel: string | null = null;
  // The first network the site reads: where the wallet's balance is shown.
  for (const name of ["eip155:84532", "eip155:8453"]) {
    const client = chainReader(name);
    const network = findNetwork(name);
    if (!client || !network || !wallet) continue;
    networkLabel = network.label;
    balanceUsd = await siteChainReader(client, network)
      .usdcBalance(wallet.address)
      .then(formatUsd)
      .catch(() => null);
    break;
  }
  return {
    address: wallet?.address ?? null,
    network: networkLabel,
    balanceUsd,
    spentTodayUsd: formatUsd(wallet ? await spentToday(db, wallet.address) : 0n),
    budgetUsd: formatUsd(budget),
    maxPerPurchaseUsd: formatUsd(usdToUnits(e.TEST_PURCHASE_MAX_PRICE)),
    on: budget > 0n && wallet !== null,
  };
}
