// The test-purchase settings, read once from lib/env.ts. The key becomes a wallet here and nowhere else; off
// (null) while the daily budget is 0 or no key is given.
import { walletFromKey, type Wallet } from "@agora-mcp/client";
import { usdToUnits } from "@agora-mcp/protocol";
import { env } from "@/lib/env";

export type TestPurchaseSettings = {
  wallet: Wallet;
  budgetUnits: bigint;
  maxUnits: bigint;
  intervalMs: number;
  timeoutMs: number;
  allowPrivateHosts: boolean;
};

/** The wallet's address when a key is configured (the admin page shows it even while the budget is 0). */
export function testPurchaseWallet(): Wallet | null {
  const key = env().TEST_PURCHASE_WALLET_KEY;
  return key ? walletFromKey(key, "TEST_PURCHASE_WALLET_KEY") : null;
}

export function testPurchaseSettings(): TestPurchaseSettings | null {
  const e = env();
  const budgetUnits = usdToUnits(e.TEST_PURCHASE_DAILY_BUDGET);
  const wallet = testPurchaseWallet();
  if (budgetUnits === 0n || !wallet) return null;
  return {
    wallet,
    budgetUnits,
    maxUnits: usdToUnits(e.TEST_PURCHASE_MAX_PRICE),
    intervalMs: e.TEST_PURCHASE_INTERVAL_SECONDS * 1000,
    timeoutMs: e.TEST_PURCHASE_TIMEOUT_SECONDS * 1000,
    allowPrivateHosts: e.PROBE_ALLOW_PRIVATE_HOSTS,
  };
}
